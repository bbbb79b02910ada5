// Per-trajectory token weights and advantage_balance, computed once over the whole job before it is
// split into micro-batches.
//
// Weights: trajectory j with n_j trainable tokens (over all its histories) gets w_j = 1/n_j on each
// of them, rescaled so the mean weight over all N trainable tokens is 1: Σ n_j·w_j = J, so
// w_j = N / (J·n_j). Every trajectory then counts equally, whatever its length.

export interface WeightedTrajectory {
  /** Trainable tokens over all of the trajectory's histories (> 0). */
  trainableTokens: number;
  advantage: number;
}

export function tokenWeights(trajectories: readonly WeightedTrajectory[]): number[] {
  const J = trajectories.length;
  const N = trajectories.reduce((a, t) => a + t.trainableTokens, 0);
  return trajectories.map((t) => N / (J * t.trainableTokens));
}

/**
 * advantage_balance b: b > 0 multiplies every negative advantage by (1 − b), b < 0 every positive
 * one by (1 + b); then (only then) all advantages are divided by mean(|A|·w) over the trainable
 * tokens so the loss keeps its scale. b = 0 returns the advantages untouched.
 */
export function balanceAdvantages(trajectories: readonly WeightedTrajectory[], weights: readonly number[], b: number): number[] {
  const advantages = trajectories.map(({ advantage: a }) => (b > 0 && a < 0 ? a * (1 - b) : b < 0 && a > 0 ? a * (1 + b) : a));
  if (b === 0) return advantages;
  let sum = 0, tokens = 0;
  trajectories.forEach((t, j) => {
    sum += t.trainableTokens * Math.abs(advantages[j]) * weights[j];
    tokens += t.trainableTokens;
  });
  const scale = sum / tokens;
  // scale is 0 only if every advantage is (b = ±1 removed one sign and nothing else was left).
  return scale > 0 ? advantages.map((a) => a / scale) : advantages;
}
