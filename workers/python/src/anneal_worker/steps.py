"""One gradient step, as Anneal's trainer takes it (lib/training/sft/sft-step.ts,
lib/training/rl/rl-step.ts): forward, the loss, backward, global-norm clipping at max_grad_norm,
AdamW at the step's learning rate. Works on any torch module called as a Hugging Face causal LM
(``module(input_ids=…, attention_mask=…).logits``) whose trainable parameters are the adapter's.
"""
import math
from typing import Dict, List, Optional, Sequence, Tuple

import torch

from .batches import attention_mask, chunks_by_tokens, rl_step_batch, token_ids
from .loss import LossSettings, policy_loss, weighted_cross_entropy

# Anneal's AdamW (lib/engine/model/adamw.ts): torch's, with β2 0.95 and decay 0.1 on matrices only.
ADAMW_BETAS = (0.9, 0.95)
ADAMW_EPS = 1e-8
ADAMW_WEIGHT_DECAY = 0.1


class NonFiniteStep(Exception):
    pass


def trainable(module: torch.nn.Module) -> List[Tuple[str, torch.nn.Parameter]]:
    return [(n, p) for n, p in module.named_parameters() if p.requires_grad]


def adamw(module: torch.nn.Module) -> torch.optim.AdamW:
    params = [p for _, p in trainable(module)]
    groups = [
        {"params": [p for p in params if p.ndim == 2], "weight_decay": ADAMW_WEIGHT_DECAY},
        {"params": [p for p in params if p.ndim != 2], "weight_decay": 0.0},
    ]
    return torch.optim.AdamW([g for g in groups if g["params"]], lr=1e-4, betas=ADAMW_BETAS, eps=ADAMW_EPS)


def dropout_seed(seed: int, step: int) -> int:
    """The dropout masks of a step: a fixed function of the job's seed and the step, so a resumed
    step draws the same."""
    return (seed * 1_000_003 + step) % (2**63)


def device_of(module: torch.nn.Module) -> torch.device:
    return next(module.parameters()).device


def row_logprobs(module: torch.nn.Module, rows: Sequence[Sequence[int]], entropy: bool = False):
    """[B, T] log π(ids[i] | ids[:i]) (column 0 is 0) in float32, and the per-position entropy of the
    same distributions (detached) when asked."""
    device = device_of(module)
    ids = token_ids(rows).to(device)
    logits = module(input_ids=ids, attention_mask=attention_mask(rows).to(device)).logits
    logp = torch.log_softmax(logits[:, :-1].float(), dim=-1)
    zeros = torch.zeros(ids.shape[0], 1, device=device)
    lp = torch.cat([zeros, logp.gather(-1, ids[:, 1:, None]).squeeze(-1)], dim=1)
    if not entropy:
        return lp, None
    with torch.no_grad():  # row by row: a [T, vocabulary] temporary rather than the batch's
        ent = torch.cat([zeros, torch.stack([-(row.exp() * row).sum(-1) for row in logp.detach()])], dim=1)
    return lp, ent


def apply_gradients(module: torch.nn.Module, optimizer: torch.optim.Optimizer, lr: float, max_grad_norm: float, what: str) -> float:
    """Clips the global gradient norm and takes the AdamW step; returns the norm before clipping.
    A non-finite gradient must not reach the weights: the job fails with the reason instead."""
    params = [p for _, p in trainable(module)]
    norm = float(torch.nn.utils.clip_grad_norm_(params, max_grad_norm))
    if not math.isfinite(norm):
        raise NonFiniteStep(f"{what}: the gradient is not finite (grad norm {norm}); the weights were left unchanged")
    for group in optimizer.param_groups:
        group["lr"] = lr
    optimizer.step()
    return norm


def sft_step(module, optimizer, rows: List[dict], num_examples: int, lr: float, step: int, seed: int,
             max_grad_norm: float, max_tokens: int) -> Dict[str, float]:
    """Mean cross-entropy over the step's weighted tokens, in chunks of rows of at most max_tokens
    padded tokens whose gradients add up to the whole step's."""
    module.train()
    optimizer.zero_grad(set_to_none=True)
    torch.manual_seed(dropout_seed(seed, step))
    total = float(sum(sum(r["weights"]) for r in rows))
    loss = 0.0
    device = device_of(module)
    for chunk in chunks_by_tokens([r["ids"] for r in rows], max_tokens):
        part = [rows[i] for i in chunk]
        lp, _ = row_logprobs(module, [r["ids"] for r in part])
        weights = torch.zeros_like(lp)
        for i, r in enumerate(part):
            weights[i, : len(r["weights"])] = torch.tensor(r["weights"], device=device)
        if total > 0:
            chunk_loss = weighted_cross_entropy(lp, weights) * (weights.sum() / total)
            chunk_loss.backward()
            loss += chunk_loss.item()
    norm = apply_gradients(module, optimizer, lr, max_grad_norm, f"SFT step {step}")
    return {"step": step, "loss": loss, "grad_norm": norm, "learning_rate": lr,
            "num_trajectories": num_examples, "num_trainable_tokens": total}


@torch.no_grad()
def validation_loss(module, rows: List[dict], max_tokens: int) -> float:
    """Mean cross-entropy over the rows' weighted tokens, without dropout; NaN without any."""
    module.eval()
    total, tokens = 0.0, 0.0
    for chunk in chunks_by_tokens([r["ids"] for r in rows], max_tokens):
        part = [rows[i] for i in chunk]
        lp, _ = row_logprobs(module, [r["ids"] for r in part])
        for i, r in enumerate(part):
            w = torch.tensor(r["weights"], device=lp.device, dtype=lp.dtype)
            total -= float((w * lp[i, : len(w)]).sum())
            tokens += float(w.sum())
    return total / tokens if tokens > 0 else float("nan")


@torch.no_grad()
def policy_logprobs(module, step_inputs: dict) -> torch.Tensor:
    """Flat [B·T] log π of an RL step's rows under the current weights, without dropout."""
    module.eval()
    lp, _ = row_logprobs(module, [r["ids"] for r in step_inputs["rows"]])
    return lp.flatten().double().cpu()


def served_abs_log_ratio(module, step_inputs: dict) -> Optional[float]:
    """Mean |log π_served − log π_trainer| over the step's trainable tokens that came with a served
    log-prob (lib/training/rl/served-log-ratio.ts); None when none did."""
    batch = rl_step_batch(step_inputs)
    known = (batch.mask > 0) & ~torch.isnan(batch.old_logprobs)
    if not bool(known.any()):
        return None
    lp = policy_logprobs(module, step_inputs)
    return float((batch.old_logprobs[known] - lp[known]).abs().mean())


def rl_step(module, optimizer, step_inputs: dict, settings: LossSettings, lr: float, stats: Dict[str, float],
            step: int, seed: int, max_grad_norm: float, old_logprobs: Optional[torch.Tensor] = None) -> Dict[str, float]:
    """The policy loss over one micro-batch (all its rows at once: a sequence-level ratio couples a
    trajectory's rows). ``old_logprobs`` replaces the sampler's (precalculate_logprobs)."""
    module.train()
    optimizer.zero_grad(set_to_none=True)
    torch.manual_seed(dropout_seed(seed, step))
    batch = rl_step_batch(step_inputs)
    if old_logprobs is not None:
        batch.old_logprobs = old_logprobs
    device = device_of(module)
    for field in ("mask", "old_logprobs", "advantages", "weights", "segments"):
        setattr(batch, field, getattr(batch, field).to(device))
    lp, ent = row_logprobs(module, [r["ids"] for r in step_inputs["rows"]], entropy=True)
    loss, mean_ratio = policy_loss(lp.flatten().double(), batch, settings)
    if not torch.isfinite(loss):
        raise NonFiniteStep(f"RL step {step}: the loss is not finite ({float(loss)}); the weights were left unchanged")
    loss.backward()
    norm = apply_gradients(module, optimizer, lr, max_grad_norm, f"RL step {step}")
    num_trainable = float(batch.mask.sum())
    entropy = float((ent.flatten().double() * batch.weights * batch.mask).sum()) / (num_trainable + 1e-6)
    return {"step": step, "loss": float(loss), "policy_loss": float(loss), "entropy": entropy, "grad_norm": norm,
            "learning_rate": lr, "num_trajectories": step_inputs["num_trajectories"], "num_trainable_tokens": num_trainable,
            "mean_ratio": float(mean_ratio), **stats}
