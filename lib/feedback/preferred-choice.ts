import { badRequest, notFound, ValidationError, type ValidationIssue } from "@/lib/contract/errors";
import type { Preference } from "./annotation-spec-values";
import { recordedCall } from "./recorded-call";

// A preferred choice (`{preferred, over}`) names two answers of one call, so it is checked against
// the recorded call: the call must exist in the project (404), have at least two choices (400: a
// preference needs two answers, whatever the value), and both indexes must be among them (422).

/** How many choices the project's recorded call has (0 for a failed call), or null when there is no such call. */
export async function callChoiceCount(projectId: string, callId: string): Promise<number | null> {
  return (await recordedCall(projectId, callId))?.choices ?? null;
}

/** What is wrong with a preference (already of the right shape) on a call with `choices` answers:
 *  throws the 404 and the 400, returns the indexes beyond the call's choices (`loc`: where the value
 *  sits in the request) for the caller to report with its other problems. */
export function preferenceIssues(value: Preference, choices: number | null, callId: string, loc: string[]): ValidationIssue[] {
  if (choices === null) throw notFound(`Call '${callId}' not found in the project: a preferred choice is checked against the call's choices.`);
  if (choices < 2) throw badRequest(`Call '${callId}' has ${choices === 0 ? "no choices" : "one choice"}: a preferred choice needs a call made with n >= 2.`);
  return (["preferred", "over"] as const)
    .filter((key) => value[key] >= choices)
    .map((key) => ({ loc: [...loc, key], msg: `choice ${value[key]} does not exist: the call has ${choices} choices (0 to ${choices - 1})`, type: "value_error" }));
}

export function assertPreferenceFits(value: Preference, choices: number | null, callId: string, loc: string[]): void {
  const issues = preferenceIssues(value, choices, callId, loc);
  if (issues.length > 0) throw new ValidationError(issues);
}
