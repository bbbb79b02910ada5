/** One gradient step's metrics (a `gradient_step` event's data): `loss`, `grad_norm`, `step`, ... */
export type GradientStepMetrics = Record<string, number>;
