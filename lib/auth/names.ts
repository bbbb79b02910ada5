import { z } from "zod";

// Team, project, model and user names appear in `team/project/name:stepN` and `svc:///` refs,
// so they never contain `/`, `:` or spaces.
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export const nameSchema = z
  .string()
  .regex(NAME_PATTERN, "must be 1–128 of A-Za-z0-9._- starting with a letter or digit");

/** `team/project` */
export const projectRefSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}\/[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/,
    "must be <team>/<project>, each 1–128 of A-Za-z0-9._- starting with a letter or digit",
  );

export function splitProjectRef(ref: string): { team: string; project: string } {
  const [team, project] = ref.split("/");
  return { team, project };
}
