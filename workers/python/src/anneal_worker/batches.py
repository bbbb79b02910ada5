"""A job's rows (docs/workers.md, "Inputs") as padded [B, T] tensors.

Entry i of a row's arrays is about ids[i] as the target predicted from ids[:i]; entry 0 is never
trained. Rows are right-padded to the longest; padding is never a target (mask and weights 0,
sampler log-prob unknown, segment −1), so the pad id does not matter.
"""
import math
from typing import List, Sequence

import torch

from .loss import PolicyBatch


def padded(rows: Sequence[Sequence[float]], fill: float, dtype: torch.dtype) -> torch.Tensor:
    width = max((len(r) for r in rows), default=0)
    out = torch.full((len(rows), width), fill, dtype=dtype)
    for i, row in enumerate(rows):
        out[i, : len(row)] = torch.tensor(row, dtype=dtype)
    return out


def token_ids(rows: Sequence[Sequence[int]]) -> torch.Tensor:
    return padded(rows, 0, torch.long)


def attention_mask(rows: Sequence[Sequence[int]]) -> torch.Tensor:
    return padded([[1] * len(r) for r in rows], 0, torch.long)


def rl_step_batch(step: dict) -> PolicyBatch:
    """One RL step's rows as the loss's flat per-position inputs ([B·T], row-major)."""
    rows = step["rows"]
    old = [[math.nan if v is None else v for v in r["logprobs"]] for r in rows]
    return PolicyBatch(
        mask=padded([r["mask"] for r in rows], 0, torch.float64).flatten(),
        old_logprobs=padded(old, math.nan, torch.float64).flatten(),
        advantages=padded([r["advantages"] for r in rows], 0, torch.float64).flatten(),
        weights=padded([r["weights"] for r in rows], 0, torch.float64).flatten(),
        segments=padded([r["segments"] for r in rows], -1, torch.long).flatten(),
        num_trajectories=step["num_trajectories"],
    )


def chunks_by_tokens(rows: List[list], max_tokens: int) -> List[List[int]]:
    """Consecutive groups of row indices whose padded size (rows × longest) stays within max_tokens
    (a row longer than that goes alone)."""
    groups: List[List[int]] = []
    longest = 0
    for i, row in enumerate(rows):
        width = max(longest, len(row))
        if groups and (len(groups[-1]) + 1) * width <= max_tokens:
            groups[-1].append(i)
            longest = width
        else:
            groups.append([i])
            longest = len(row)
    return groups
