// What a base model declares about training it: the learning rates a job uses when its request
// leaves `learning_rate` null, for the model's mode. Each base model's card supplies these
// (docs/rl-loss.md: LoRA on large models ~5e-6, full fine-tuning of Anneal's tiny models ~1e-4-scale;
// LoRA on tiny-chat-2: docs/decisions.md, "LoRA on tiny-chat-2").
export interface ModelTrainingDefaults {
  defaultRlLearningRate: number;
  defaultSftLearningRate: number;
}
