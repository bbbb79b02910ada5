// Reward 1 when the reply's length in characters (code points, trimmed) is within [min, max].

export function lengthInRange(reply: string, o: { min: number; max: number }): number {
  const length = [...reply.trim()].length;
  return length >= o.min && length <= o.max ? 1 : 0;
}
