"""The bases (transformers' AutoModelForCausalLM, bf16 on CUDA, float32 on CPU) and a job's LoRA
adapter over one (PEFT), to and from the PEFT zip Anneal imports and serves: adapter_config.json
and adapter_model.safetensors at the zip's root."""
import io
import json
import os
import tempfile
import zipfile
from typing import Dict, List, Optional

import torch

from .steps import row_logprobs

PEFT_FILES = ("adapter_config.json", "adapter_model.safetensors")


def require_transformers_and_peft() -> None:
    try:
        import peft  # noqa: F401
        import transformers  # noqa: F401
    except ImportError as e:
        raise SystemExit(f"anneal-worker needs transformers and peft beside torch (pip install ./workers/python): {e}")


def default_device() -> torch.device:
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def training_dtype(device: torch.device) -> torch.dtype:
    return torch.bfloat16 if device.type == "cuda" else torch.float32


def dtype_argument(dtype: torch.dtype) -> dict:
    """transformers 4.56 renamed from_pretrained's torch_dtype to dtype."""
    import transformers

    major, minor = (int(part) for part in transformers.__version__.split(".")[:2])
    return {"dtype": dtype} if (major, minor) >= (4, 56) else {"torch_dtype": dtype}


def load_base(source: str, device: torch.device) -> torch.nn.Module:
    """A local directory, or a hub name found in the local Hugging Face cache: nothing is downloaded."""
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(source, local_files_only=True, **dtype_argument(training_dtype(device)))
    model.to(device).eval()
    model.requires_grad_(False)
    return model


def memory_bytes(device: torch.device) -> int:
    if device.type == "cuda":
        return torch.cuda.get_device_properties(device).total_memory
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


class Bases:
    """The bases this worker offers, by the name Anneal knows them by (hf_name), and the one held
    in memory (one at a time: a GPU holds one large base)."""

    def __init__(self, sources: Dict[str, str], device: torch.device):
        self.sources, self.device = dict(sources), device
        self._held: Optional[tuple] = None

    @property
    def names(self) -> List[str]:
        return list(self.sources)

    def get(self, name: str) -> torch.nn.Module:
        if self._held is None or self._held[0] != name:
            self.release()
            self._held = (name, load_base(self.sources[name], self.device))
        return self._held[1]

    def drop(self, name: str) -> None:
        self.sources.pop(name, None)
        if self._held is not None and self._held[0] == name:
            self.release()

    def release(self) -> None:
        """Forgets the base held (after a job that failed midway may have left it changed)."""
        self._held = None
        if self.device.type == "cuda":
            torch.cuda.empty_cache()


@torch.no_grad()
def probe_logprobs(base: torch.nn.Module, ids: List[int]) -> List[float]:
    """log π(ids[i] | ids[:i]) for i ≥ 1, entry 0 = 0, in the training precision (docs/workers.md, "Probe")."""
    base.eval()
    lp, _ = row_logprobs(base, [ids])
    return [float(v) for v in lp[0]]


def with_adapter(base: torch.nn.Module, lora: dict, seed: int, start_zip: Optional[bytes],
                 gradient_checkpointing: bool = False) -> torch.nn.Module:
    """The base wrapped in a trainable LoRA adapter: the model's newest one (a PEFT zip) to continue,
    or a fresh one (A seeded by the job, B = 0). PEFT keeps the adapter's weights in float32.
    Gradient checkpointing trades a second forward for the activations' memory (long rows, large bases)."""
    from peft import LoraConfig, PeftModel, get_peft_model

    if gradient_checkpointing:
        base.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})

    if start_zip is None:
        torch.manual_seed(seed)
        config = LoraConfig(r=lora["rank"], lora_alpha=lora["alpha"], lora_dropout=lora["dropout"],
                            target_modules=list(lora["target_modules"]), bias="none", task_type="CAUSAL_LM")
        return get_peft_model(base, config)
    with tempfile.TemporaryDirectory() as folder:
        extract_peft_zip(start_zip, folder)
        config = LoraConfig.from_pretrained(folder)
        if config.r != lora["rank"] or set(config.target_modules) != set(lora["target_modules"]):
            raise ValueError(f"the start adapter (rank {config.r}, {sorted(config.target_modules)}) is not this model's "
                             f"(rank {lora['rank']}, {sorted(lora['target_modules'])})")
        config.lora_dropout = lora["dropout"]
        return PeftModel.from_pretrained(base, folder, config=config, is_trainable=True)


def without_adapter(model: torch.nn.Module) -> torch.nn.Module:
    """The base again, its LoRA layers removed unmerged (the next job wraps it afresh)."""
    base = model.unload()
    if hasattr(base, "peft_config"):
        del base.peft_config
    return base


def extract_peft_zip(data: bytes, folder: str) -> None:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = set(z.namelist())
        for name in PEFT_FILES:
            if name not in names:
                raise ValueError(f"the start adapter's zip has no {name} at its root")
            with open(os.path.join(folder, name), "wb") as f:
                f.write(z.read(name))


def adapter_zip(model: torch.nn.Module, base_name: str) -> bytes:
    """The adapter as a PEFT zip that names its base by the name Anneal knows it by."""
    with tempfile.TemporaryDirectory() as folder:
        model.save_pretrained(folder)
        config_path = os.path.join(folder, "adapter_config.json")
        with open(config_path) as f:
            config = json.load(f)
        config["base_model_name_or_path"] = base_name
        with open(config_path, "w") as f:
            json.dump(config, f, indent=2)
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for name in PEFT_FILES:
                z.write(os.path.join(folder, name), name)
        return out.getvalue()
