// Stands in for zod's locales index in the bundle (scripts/build.mjs): yuj's
// messages are English, and the other 40-odd locales are half of zod's code
// (about 370 KB) that every start-up would compile for nothing.
export { default as en } from "zod/v4/locales/en.js";
