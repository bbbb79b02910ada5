// Reward 1 when the reply matches a regular expression (anywhere in it, unless anchored).

export function regexMatch(reply: string, pattern: RegExp): number {
  pattern.lastIndex = 0; // a g or y flag would make test() resume where the last reply left off
  return pattern.test(reply) ? 1 : 0;
}
