// Probes the embedded inference engine where it serves: its thread must be running and have
// loaded node-llama-cpp's prebuilt CPU binding (~1 s the first time, then a message round trip).
import { embeddedEngine } from "@/lib/inference/engine";

export function probeEmbeddedEngine(): Promise<void> {
  return embeddedEngine().probe();
}
