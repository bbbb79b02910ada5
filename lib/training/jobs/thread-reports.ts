// What a training thread reports, turned into its job's writes: training_started, the gradient
// steps, its saved states, then the checkpoint or the failure. Steps reported while an earlier
// write is in flight are written together, in one transaction: a fast job (ms per step) must not
// cost a transaction per step on a shared database. A retried attempt redoes the steps after the
// state it resumed from; those already in the event feed are not written again (the feed stays
// append-only, each step once, so a client counting steps against num_sequences stays right).
import type { JobReport } from "./job-report";
import type { StepEvent } from "./job-writes";
import type { OwnedJob } from "./owned-job";
import type { LeaseState } from "./queue";
import type { ThreadMessage } from "./train/thread-messages";

export class ThreadReports {
  /** When the thread last reported anything (the heartbeat's stall check). */
  lastHeard = Date.now();
  /** Steps in the feed, and the last step heard of (written or about to be). */
  private stepsDone: number;
  private lastStep: number;
  private pendingSteps: StepEvent[] = [];
  /** An SFT job's guard rails and sample replies, stored with its end. */
  private report: JobReport | null = null;

  constructor(
    private readonly job: OwnedJob,
    /** Gradient steps already in the job's event feed (an earlier attempt's): not reported again. */
    reportedSteps: number,
    /** The claim this run is (a retry's steps carry it, so its curve tells the attempts apart). */
    private readonly attempt: number,
  ) {
    this.stepsDone = this.lastStep = reportedSteps;
  }

  readonly onMessage = (message: ThreadMessage): void => {
    this.lastHeard = Date.now();
    const { job } = this;
    switch (message.type) {
      case "started":
        job.write(() => job.writes.started(message.numSequences, message.fromStep));
        break;
      case "step":
        if (message.metrics.step <= this.lastStep) break; // redone: the feed has it
        this.lastStep = message.metrics.step;
        this.pendingSteps.push({ type: "gradient_step", data: this.attempt > 1 ? { ...message.metrics, attempt: this.attempt } : message.metrics });
        if (this.pendingSteps.length === 1) job.write(this.flushSteps);
        break;
      case "saved":
        // After the flush of its steps (writes go in order): a retry never resumes past the feed.
        job.write(() => job.writes.saved(message.state));
        break;
      case "report":
        this.report = message.report;
        break;
      case "done":
        job.write(this.flushSteps);
        // stepsDone is read when the write runs, after the flush above has counted the last steps.
        job.succeed(() => job.writes.complete(message.metrics, this.stepsDone, this.report));
        break;
      case "error":
        job.fail(message.message);
        break;
      case "stopped":
        // The runner is shutting down: it hands the job back once the state saved before this is written.
        break;
    }
  };

  readonly onCrash = (error: Error): void => {
    this.job.fail(`The training thread crashed: ${error.message}`);
  };

  private readonly flushSteps = async (): Promise<LeaseState> => {
    const events = this.pendingSteps.splice(0);
    if (events.length === 0) return { owned: true, cancelRequested: false };
    return this.job.writes.steps(events, (this.stepsDone += events.length));
  };
}
