// A trajectory the trainer cannot use (unknown token, non-finite reward, too long for the model...).
// It is the client's data that is wrong, so it is an AppError("bad_request"): the HTTP layer answers
// 400 with the message, and a training worker can put the same message in training_failed.
import { AppError } from "@/lib/contract/errors";

/** Where in a request's trajectory_groups a problem is. `history` 0 is the trajectory's own
 *  messages_and_choices, k > 0 is additional_histories[k − 1]. */
export interface TrajectoryLocation {
  group: number;
  trajectory: number;
  history?: number;
}

export class TrajectoryError extends AppError {
  /** e.g. "messages_and_choices[3].logprobs.content[5]" (relative to the trajectory). */
  readonly position: string;

  constructor(readonly location: TrajectoryLocation, position: string, problem: string) {
    super("bad_request", `${trajectoryPath(location)}${position ? `.${position}` : ""}: ${problem}`);
    this.name = "TrajectoryError";
    this.position = position;
  }

  get group(): number {
    return this.location.group;
  }

  get trajectory(): number {
    return this.location.trajectory;
  }
}

/** "trajectory_groups[g].trajectories[t]", plus ".additional_histories[k]" for a further history. */
export function trajectoryPath({ group, trajectory, history = 0 }: TrajectoryLocation): string {
  const base = `trajectory_groups[${group}].trajectories[${trajectory}]`;
  return history > 0 ? `${base}.additional_histories[${history - 1}]` : base;
}
