// Where the required planning phase's plan goes, relative to the task
// directory: exit_plan_mode checks it, the plan-mode guard lets the model
// write it, and the done guard never counts it as a change.
export const PLAN_FILE = ".solver/plan.md";
