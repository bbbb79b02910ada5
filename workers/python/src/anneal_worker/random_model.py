"""``anneal-worker make-random-model``: a model with random weights from a Hugging Face config.json
(no download, no tokenizer), for checking a GPU machine's training on a real architecture's shapes."""
import json

import torch


def make_random_model(config_path: str, out: str, seed: int = 0, dtype: str = "float32") -> None:
    from transformers import AutoConfig, AutoModelForCausalLM

    with open(config_path) as f:
        settings = json.load(f)
    model_type = settings.pop("model_type")
    config = AutoConfig.for_model(model_type, **settings)
    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_config(config)
    model.to(getattr(torch, dtype)).save_pretrained(out)
