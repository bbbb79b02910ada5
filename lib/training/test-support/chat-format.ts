// Test fixture: the chat format and training vocabulary a GGUF Anneal writes for `tokenizer`
// carries (Anneal's template, BOS <|endoftext|>, EOS <|im_end|>), read back as a training job reads it.
import type { ChatFormat } from "@/lib/engine/tokenizer/chat-template";
import type { Tokenizer } from "@/lib/engine/tokenizer/tokenizer";
import { chatFormatFromGguf, tokenizerToGguf } from "@/lib/engine/tokenizer/tokenizer-gguf";
import { annealVocabulary, type TrainingVocabulary } from "@/lib/engine/tokenizer/training-vocabulary";

export const chatFormatOf = (tokenizer: Tokenizer): ChatFormat => chatFormatFromGguf(tokenizerToGguf(tokenizer), tokenizer);

export const trainingVocabularyOf = (tokenizer: Tokenizer): TrainingVocabulary => annealVocabulary(tokenizer, tokenizerToGguf(tokenizer));
