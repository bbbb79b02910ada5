// Test fixture: a tokenizer with one token per byte plus the ChatML specials and no merges. Every
// digit is one token, which keeps the learning smoke tests' rewards and formats simple.
import { BYTE_TO_CHAR } from "@/lib/engine/tokenizer/byte-alphabet";
import { CHATML_SPECIALS } from "@/lib/engine/tokenizer/chatml";
import { Tokenizer } from "@/lib/engine/tokenizer/tokenizer";

export const byteTokenizer = (): Tokenizer => new Tokenizer({ tokens: [...BYTE_TO_CHAR, ...CHATML_SPECIALS], merges: [], specials: CHATML_SPECIALS });
