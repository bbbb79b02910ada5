import fs from "node:fs";
import { readPerFileVersion, type FileVersionCache } from "./file-version-cache";
import { ggmlBlockLayout, ggmlTypeName } from "./ggml-types";
import { openGguf } from "./read-gguf";
import type { GgufMetadata } from "./values";

// What the base-models API and the training estimate show of any GGUF, trainable or not, read from its
// header (never its tensors) once per version of the file.

export interface GgufSummary {
  /** general.architecture, e.g. "qwen2"; null when absent. */
  architecture: string | null;
  /** Elements of every tensor, summed. */
  parameters: number;
  /** `<arch>.context_length`; null when absent. */
  contextLength: number | null;
  /** The file type llama.cpp names it by (general.file_type: "F16", "Q4_K_M"), else the ggml type
   *  holding most of the parameters. */
  weightType: string;
  /** The ggml type holding most of the parameters, e.g. "Q8_0" (a Q4_K_M file: "Q4_K"). */
  mainType: string;
  /** The tensors' bytes as stored. */
  weightBytes: number;
  sizeBytes: number;
}

/** llama.h `enum llama_ftype` → the name llama.cpp's tools give it (gaps are retired types). */
const LLAMA_FILE_TYPES: Record<number, string> = {
  0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 7: "Q8_0", 8: "Q5_0", 9: "Q5_1", 10: "Q2_K", 11: "Q3_K_S", 12: "Q3_K_M",
  13: "Q3_K_L", 14: "Q4_K_S", 15: "Q4_K_M", 16: "Q5_K_S", 17: "Q5_K_M", 18: "Q6_K", 19: "IQ2_XXS", 20: "IQ2_XS",
  21: "Q2_K_S", 22: "IQ3_XS", 23: "IQ3_XXS", 24: "IQ1_S", 25: "IQ4_NL", 26: "IQ3_S", 27: "IQ3_M", 28: "IQ2_S",
  29: "IQ2_M", 30: "IQ4_XS", 31: "IQ1_M", 32: "BF16", 36: "TQ1_0", 37: "TQ2_0", 38: "MXFP4_MOE",
};

const summaries: FileVersionCache<GgufSummary> = new Map();

function scalar(metadata: GgufMetadata, key: string): string | number | null {
  const v = metadata[key];
  if (!v || v.type === "array" || v.type === "bool") return null;
  return typeof v.value === "bigint" ? Number(v.value) : v.value;
}

/** The file's summary; throws (without the path) when it is not a GGUF. */
export function ggufSummary(path: string): GgufSummary {
  return readPerFileVersion(summaries, path, () => {
    const file = openGguf(path);
    try {
      const architecture = scalar(file.metadata, "general.architecture");
      const contextLength = typeof architecture === "string" ? scalar(file.metadata, `${architecture}.context_length`) : null;
      const byType = new Map<number, number>();
      let parameters = 0;
      let weightBytes = 0;
      for (const t of file.tensors) {
        const count = t.dims.reduce((a, b) => a * b, 1);
        const layout = ggmlBlockLayout(t.ggmlType);
        parameters += count;
        weightBytes += layout ? (count / layout.blockSize) * layout.blockBytes : 4 * count;
        byType.set(t.ggmlType, (byType.get(t.ggmlType) ?? 0) + count);
      }
      const fileType = scalar(file.metadata, "general.file_type");
      const dominant = [...byType].sort((a, b) => b[1] - a[1])[0];
      const mainType = dominant ? ggmlTypeName(dominant[0]) : "none";
      return {
        architecture: typeof architecture === "string" ? architecture : null,
        parameters,
        contextLength: typeof contextLength === "number" ? contextLength : null,
        weightType: (typeof fileType === "number" && LLAMA_FILE_TYPES[fileType]) || mainType,
        mainType,
        weightBytes,
        sizeBytes: fs.statSync(path).size,
      };
    } finally {
      file.close();
    }
  });
}
