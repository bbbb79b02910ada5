// Probes the embedded inference engine: node-llama-cpp's prebuilt CPU binding must load.
// Loaded once per process (it takes ~1 s) and shared through globalThis with the serving code.

const key = Symbol.for("anneal.llama");
type Holder = { [key]?: Promise<unknown> };

export function loadLlama(): Promise<unknown> {
  const holder = globalThis as Holder;
  holder[key] ??= import("node-llama-cpp").then(({ getLlama }) => getLlama({ gpu: false, build: "never" }));
  holder[key].catch(() => {
    holder[key] = undefined; // let a later probe retry
  });
  return holder[key];
}

export async function probeEmbeddedEngine(): Promise<void> {
  await loadLlama();
}
