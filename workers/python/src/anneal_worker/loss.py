"""The two losses, as Anneal's trainer computes them (docs/rl-loss.md).

Both take flat per-position tensors: entry t is about the target token at position t (its log π
under the live weights in ``logprobs``, which the loss differentiates). The Node trainer writes
the same formulas out by hand (lib/training/rl/policy-loss.ts); tests/fixtures/rl-loss-fixture.json
holds cases both must reproduce (tests/test_loss_fixture.py).
"""
from dataclasses import dataclass
from typing import Optional

import torch


@dataclass(frozen=True)
class LossSettings:
    """The resolved RL loss settings of a job's inputs (``rl.loss``), nothing left to default."""

    ppo: bool
    epsilon: float
    epsilon_high: float
    importance_sampling_level: str
    max_negative_advantage_importance_sampling_weight: Optional[float]
    mask_prob_ratio: bool
    kimi_k2_tau: float

    @staticmethod
    def from_json(d: dict) -> "LossSettings":
        return LossSettings(
            ppo=bool(d["ppo"]),
            epsilon=float(d["epsilon"]),
            epsilon_high=float(d["epsilon_high"]),
            importance_sampling_level=d["importance_sampling_level"],
            max_negative_advantage_importance_sampling_weight=d.get("max_negative_advantage_importance_sampling_weight"),
            mask_prob_ratio=bool(d["mask_prob_ratio"]),
            kimi_k2_tau=float(d.get("kimi_k2_tau") or 0.0),
        )


@dataclass
class PolicyBatch:
    """One micro-batch's per-position RL inputs; ``old_logprobs`` is NaN where unknown, ``segments``
    numbers the trajectories (−1 on padding)."""

    mask: torch.Tensor
    old_logprobs: torch.Tensor
    advantages: torch.Tensor
    weights: torch.Tensor
    segments: torch.Tensor
    num_trajectories: int


def weighted_cross_entropy(logprobs: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    """SFT: L = −Σ w·log π / Σ w (0 when nothing is trainable)."""
    total = weights.sum()
    if total <= 0:
        return (logprobs * 0).sum()
    return -(weights * logprobs).sum() / total


def policy_loss(logprobs: torch.Tensor, batch: PolicyBatch, s: LossSettings):
    """Returns (loss, mean ratio): the step loss Σ ℓ_t·w_t·m_t / (Σ m_t + 1e-6), and the mean over
    trainable tokens of ρ at the importance-sampling level before the cap and masking."""
    trainable = batch.mask > 0
    detached = logprobs.detach()
    # A missing π_old is sg(log π_θ): Δ = 0 with ∂Δ/∂log π_θ = 1 (ratio 1, on-policy).
    old = torch.where(torch.isnan(batch.old_logprobs), detached, batch.old_logprobs.to(logprobs.dtype))
    zero = torch.zeros_like(logprobs)
    delta = torch.where(trainable, logprobs - old, zero)
    delta_sg = delta.detach()

    segment = torch.where(trainable, batch.segments.long(), torch.zeros_like(batch.segments.long()))
    count = torch.zeros(batch.num_trajectories, dtype=logprobs.dtype, device=logprobs.device)
    count = count.index_add(0, segment, trainable.to(logprobs.dtype))

    def trajectory_mean(d: torch.Tensor) -> torch.Tensor:  # μ_j of each position's trajectory
        return (torch.zeros_like(count).index_add(0, segment, d) / count.clamp(min=1))[segment]

    mean_delta, mean_delta_sg = trajectory_mean(delta), trajectory_mean(delta_sg)

    low, high = 1 - s.epsilon, 1 + s.epsilon_high
    live = _ratio(s.importance_sampling_level, delta, mean_delta)
    num_trainable = trainable.sum()
    mean_ratio = (live.detach() * trainable).sum() / num_trainable if num_trainable > 0 else torch.ones((), dtype=logprobs.dtype)

    advantages = batch.advantages.to(logprobs.dtype) - s.kimi_k2_tau * delta_sg
    if s.ppo:
        rho = _limit(live, s, low, high)
        per_token = -torch.minimum(rho * advantages, rho.clamp(low, high) * advantages)
    else:
        weight = _limit(_ratio(s.importance_sampling_level, delta_sg, mean_delta_sg), s, low, high).clamp(low, high)
        per_token = -weight * advantages * logprobs
    scale = batch.weights.to(logprobs.dtype) / (num_trainable + 1e-6)
    loss = torch.where(trainable, per_token * scale, zero).sum()
    return loss, mean_ratio


def _ratio(level: str, delta: torch.Tensor, mean: torch.Tensor) -> torch.Tensor:
    if level == "token":
        return delta.exp()
    if level == "sequence":
        return mean.exp()
    if level == "average":
        return (delta.exp() + mean.exp()) / 2
    if level == "geometric_average":
        return ((delta + mean) / 2).exp()  # √(e^Δ · e^μ)
    raise ValueError(f"unknown importance_sampling_level {level!r}")


def _limit(rho: torch.Tensor, s: LossSettings, low: float, high: float) -> torch.Tensor:
    """The weight cap, then mask_prob_ratio (before the loss's own clip): both constant where they act."""
    cap = s.max_negative_advantage_importance_sampling_weight
    if cap:  # ART tests it for truthiness: 0 is off
        rho = torch.where(rho > cap, torch.full_like(rho, cap), rho)
    if s.mask_prob_ratio:
        rho = torch.where((rho > low) & (rho < high), rho, torch.zeros_like(rho))
    return rho
