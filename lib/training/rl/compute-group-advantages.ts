// GRPO advantages of one group: A_i = r_i − mean, divided by (population std + 1e-6) when
// scale_rewards. A trajectory whose advantage is exactly 0 teaches nothing and is dropped by the
// caller, so a group of equal rewards contributes nothing.

export function computeGroupAdvantages(rewards: readonly number[], scaleRewards: boolean): number[] {
  // A float mean of equal rewards can differ from them in the last bit (mean of three 0.7s is
  // 0.7000000000000001), which scaling by 1/(0 + 1e-6) would turn into a trainable ~1e-10.
  if (rewards.every((r) => r === rewards[0])) return rewards.map(() => 0);
  const { mean, std } = rewardStats(rewards);
  return rewards.map((r) => (scaleRewards ? (r - mean) / (std + 1e-6) : r - mean));
}

/** Mean and population standard deviation (divide by n); zeros for an empty list. */
export function rewardStats(rewards: readonly number[]): { mean: number; std: number } {
  const n = rewards.length;
  if (n === 0) return { mean: 0, std: 0 };
  const mean = rewards.reduce((a, b) => a + b, 0) / n;
  const std = Math.sqrt(rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / n);
  return { mean, std };
}
