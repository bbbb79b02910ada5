// `concurrency` streams, each making `requestsPerStream` requests one after another: a closed loop,
// as vLLM's benchmark_serving does with --max-concurrency. Every stream starts its next request
// the moment its last one ends, so N streams keep N requests in flight; synchronised rounds instead
// would idle the engine at every round's start while N new requests are all being set up at once.

export interface Run {
  latencyMs: number;
  ttftMs: number;
  tokens: number;
}

export interface Measurement {
  runs: Run[];
  seconds: number;
  /** CPU time of the client process over the requests (HTTP measurements only). */
  clientCpuMs?: number;
}

export async function closedLoop(concurrency: number, requestsPerStream: number, once: () => Promise<Run>): Promise<Measurement> {
  const start = performance.now();
  const runs: Run[] = [];
  const stream = async () => {
    for (let i = 0; i < requestsPerStream; i++) runs.push(await once());
  };
  await Promise.all(Array.from({ length: concurrency }, stream));
  return { runs, seconds: (performance.now() - start) / 1000 };
}
