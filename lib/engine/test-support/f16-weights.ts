// The matrices of a real-layout model as F16, as convert_hf_to_gguf.py writes them with
// --outtype f16 (the F16 files people download): 2-D weights F16, norms and biases F32.
import { encodeF16 } from "../gguf/half-float";
import { GGML_TYPE } from "../gguf/ggml-types";
import { LLAMA_FTYPE } from "./ggml-reference";
import type { WeightEncoder } from "./real-layout-models";

export const F16_WEIGHTS: WeightEncoder = {
  ggmlType: GGML_TYPE.F16,
  fileType: LLAMA_FTYPE.MOSTLY_F16,
  byteLength: (dims) => 2 * dims.reduce((a, b) => a * b, 1),
  encode(values) {
    const half = encodeF16(values);
    return new Uint8Array(half.buffer, half.byteOffset, half.byteLength);
  },
};
