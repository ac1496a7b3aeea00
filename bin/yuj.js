#!/usr/bin/env node
import "../dist/yuj.js";
