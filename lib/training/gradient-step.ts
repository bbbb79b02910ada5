/** One gradient step's metrics (a `gradient_step` event's data): `loss`, `grad_norm`, `step`, ... */
export type GradientStepMetrics = Record<string, number>;

/** Every job's steps clip the gradient to this global norm (`max_grad_norm` in a remote worker's inputs). */
export const MAX_GRAD_NORM = 1;
