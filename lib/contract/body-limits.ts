// Request body limits (contract: 1 MiB by default, 64 MiB for training jobs, logs and uploads).

export const MiB = 1024 * 1024;
export const DEFAULT_BODY_LIMIT = 1 * MiB;
export const LARGE_BODY_LIMIT = 64 * MiB;
