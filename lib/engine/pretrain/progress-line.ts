// The one-line training progress report: a bar, step, loss, throughput and time left.

export interface Progress {
  step: number;
  totalSteps: number;
  loss: number;
  tokensPerSecond: number;
  etaSeconds: number;
}

const WIDTH = 24;

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const hms = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  return (hms[0] ? hms : hms.slice(1)).map((x, i) => (i ? String(x).padStart(2, "0") : String(x))).join(":");
}

export function progressLine(p: Progress): string {
  const filled = Math.round((WIDTH * p.step) / p.totalSteps);
  const bar = "#".repeat(filled) + ".".repeat(WIDTH - filled);
  return `[${bar}] step ${p.step}/${p.totalSteps} loss ${p.loss.toFixed(3)} ${Math.round(p.tokensPerSecond).toLocaleString("en")} tok/s ETA ${formatDuration(p.etaSeconds)}`;
}
