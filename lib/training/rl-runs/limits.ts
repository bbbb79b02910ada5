// An RL run's limits, in a module of their own so the console's form checks the same numbers the
// server's schemas do without bundling the server's schemas.

/** Prompts per run, from any source. */
export const MAX_RUN_PROMPTS = 1_000;
