// Which jobs a Chord agent may read or stop (the page's job_list: "the
// background jobs you can read or stop … including jobs started by the main
// agent and by your direct owner"). The main agent reaches every job; a
// worker reaches its own and its owner's, which is always the main agent
// (only the main agent delegates), never a sibling worker's.

import { MAIN_READER, type JobManager, type JobSnapshot } from "../../../core/jobs/types.js";

export function reachableBy(job: Pick<JobSnapshot, "owner">, agent: string): boolean {
  const owner = job.owner ?? MAIN_READER;
  return agent === MAIN_READER || owner === MAIN_READER || owner === agent;
}

/** The jobs `agent` may act on, finished ones too when asked. */
export function reachableJobs(jobs: JobManager, agent: string, includeFinished: boolean): JobSnapshot[] {
  return jobs.list({ includeFinished }).filter((j) => reachableBy(j, agent));
}

/** Refusal for another worker's job, in Chord's words ("not owned", "not accessible"). */
export function notOwned(id: string): string {
  return (
    `ERROR: job ${id} is not owned by this agent and is not accessible to it: ` +
    "a worker reads and stops only the jobs it started and the main agent's."
  );
}
