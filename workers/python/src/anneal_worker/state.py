"""A resumable state in the format ``anneal-torch-peft-1``: a zip of ``state.json`` (the format, the
step it was saved after, the optimizer's settings and scalars, the epochs' val/loss) and
``tensors.pt`` (the adapter's trainable tensors, the optimizer's moments and, with early stopping,
the best epoch's adapter). Tensors only go through torch.load, with weights_only: a state is data."""
import io
import json
import zipfile
from typing import Dict, Optional

import torch

FORMAT = "anneal-torch-peft-1"


def adapter_tensors(module: torch.nn.Module) -> Dict[str, torch.Tensor]:
    return {n: p.detach().to("cpu", copy=True) for n, p in module.named_parameters() if p.requires_grad}


def load_adapter_tensors(module: torch.nn.Module, tensors: Dict[str, torch.Tensor]) -> None:
    params = {n: p for n, p in module.named_parameters() if p.requires_grad}
    if set(params) != set(tensors):
        raise ValueError(f"the saved adapter has {len(tensors)} tensors, this model {len(params)} trainable ones with other names")
    with torch.no_grad():
        for n, p in params.items():
            p.copy_(tensors[n])


def state_bytes(step: int, module: torch.nn.Module, optimizer: torch.optim.Optimizer,
                history: Optional[list] = None, best: Optional[Dict[str, torch.Tensor]] = None) -> bytes:
    opt = optimizer.state_dict()
    tensors = {f"adapter.{n}": t for n, t in adapter_tensors(module).items()}
    tensors.update({f"best.{n}": t for n, t in (best or {}).items()})
    scalars: Dict[str, dict] = {}
    for index, entries in opt["state"].items():
        for key, value in entries.items():
            if torch.is_tensor(value):
                tensors[f"optimizer.{index}.{key}"] = value.detach().to("cpu")
            else:
                scalars.setdefault(str(index), {})[key] = value
    meta = {"format": FORMAT, "step": step, "history": history or [], "has_best": best is not None,
            "optimizer": {"param_groups": opt["param_groups"], "scalars": scalars}}
    tensor_bytes = io.BytesIO()
    torch.save(tensors, tensor_bytes)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("state.json", json.dumps(meta))
        z.writestr("tensors.pt", tensor_bytes.getvalue())
    return out.getvalue()


def read_state(data: bytes) -> dict:
    """{"step", "history", "adapter", "best" (or None), "optimizer" (a state_dict)}."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            meta = json.loads(z.read("state.json"))
            tensors = torch.load(io.BytesIO(z.read("tensors.pt")), map_location="cpu", weights_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError) as e:
        raise ValueError(f"not an {FORMAT} state: {e}") from e
    if meta.get("format") != FORMAT:
        raise ValueError(f"not an {FORMAT} state (format {meta.get('format')!r})")

    def part(prefix: str) -> Dict[str, torch.Tensor]:
        return {k[len(prefix):]: v for k, v in tensors.items() if k.startswith(prefix)}

    optimizer_state: Dict[int, dict] = {}
    for key, value in part("optimizer.").items():
        index, name = key.split(".", 1)
        optimizer_state.setdefault(int(index), {})[name] = value
    for index, entries in meta["optimizer"]["scalars"].items():
        optimizer_state.setdefault(int(index), {}).update(entries)
    return {"step": meta["step"], "history": meta["history"], "adapter": part("adapter."),
            "best": part("best.") if meta["has_best"] else None,
            "optimizer": {"state": optimizer_state, "param_groups": meta["optimizer"]["param_groups"]}}


def restore(state: dict, module: torch.nn.Module, optimizer: torch.optim.Optimizer) -> int:
    """Puts the saved adapter and optimizer back; returns the step the state was saved after."""
    load_adapter_tensors(module, state["adapter"])
    optimizer.load_state_dict(state["optimizer"])
    return int(state["step"])
