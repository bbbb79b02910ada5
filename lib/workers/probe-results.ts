// A remote worker's probe verdicts, per base (Anneal's name), as its RemoteWorker row keeps them.

export interface ProbeResult {
  passed: boolean;
  /** false: Anneal holds no GGUF of the base, so it was accepted unchecked. */
  checked: boolean;
  mean_abs_delta: number | null;
  tolerance: number | null;
}

export type ProbeResults = Record<string, ProbeResult>;

export const probeResultsOf = (json: unknown): ProbeResults => (json && typeof json === "object" ? (json as ProbeResults) : {});
