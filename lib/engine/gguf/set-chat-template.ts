// Rewrites one GGUF's chat template (tokenizer.chat_template) in place, every other key, tensor and
// weight kept as they are: how a model file written with an older template (models/tiny-chat.gguf,
// an older model's checkpoints) takes today's without retraining (scripts/set-chat-template.ts).
// Tensors are copied as their stored bytes, so a file of any ggml type keeps its types.
import { openGguf } from "./read-gguf";
import { str } from "./values";
import { writeGguf } from "./write-gguf";

/** Returns false when the file already has `template` (and leaves it untouched). */
export function setChatTemplate(path: string, template: string): boolean {
  const file = openGguf(path);
  try {
    if (file.metadata["tokenizer.chat_template"]?.value === template) return false;
    const tensors = file.tensors.map((t) => ({ name: t.name, dims: t.dims, ggmlType: t.ggmlType, bytes: file.readTensorBytes(t.name) }));
    // The key keeps its place, so the file is the one writeLlamaGguf writes with this template.
    writeGguf(path, { ...file.metadata, "tokenizer.chat_template": str(template) }, tensors);
    return true;
  } finally {
    file.close();
  }
}
