// What a base model declares about training it: the learning rates a job uses when its request
// leaves `learning_rate` null. Each base model's card supplies these (docs/rl-loss.md: LoRA on large
// models ~5e-6, full fine-tuning of Anneal's tiny models ~1e-4-scale).
export interface ModelTrainingDefaults {
  defaultRlLearningRate: number;
  defaultSftLearningRate: number;
}
