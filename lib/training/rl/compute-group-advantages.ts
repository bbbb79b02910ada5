// GRPO advantages of one group: A_i = r_i − mean, divided by (population std + 1e-6) when
// scale_rewards. A trajectory whose advantage is exactly 0 teaches nothing and is dropped by the
// caller, so a group of equal rewards contributes nothing.

export function computeGroupAdvantages(rewards: readonly number[], scaleRewards: boolean): number[] {
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
