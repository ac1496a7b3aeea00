export * from "../../core/jobs/process-group.js";
