"""A job's gradient steps from its inputs (docs/workers.md), as Anneal's trainer runs them: SFT with
val/loss at each epoch's end, early stopping and the best epoch's weights
(lib/training/sft/sft-epochs.ts); RL with precalculate_logprobs and served_abs_log_ratio
(lib/training/rl/rl-step.ts). Where the steps are reported and states are kept is the caller's
(``Progress``): the server over HTTP, or a bundle's result."""
import math
from typing import Dict, Iterator, List, Optional, Protocol

import torch

from .batches import rl_step_batch
from .loss import LossSettings
from .state import adapter_tensors, load_adapter_tensors, restore, state_bytes
from .steps import adamw, policy_logprobs, rl_step, served_abs_log_ratio, sft_step, validation_loss

# The reward statistics each RL step's metrics echo (rl-step.ts).
STEP_STATS = ("reward", "reward_std_dev", "num_groups_submitted", "num_groups_trainable")
# Averaged over the steps into the checkpoint's train/* metrics (run-training.ts).
MEANS = ("loss", "entropy", "grad_norm", "num_trainable_tokens")


class Stopped(Exception):
    """Training stopped between steps: ``reason`` is "cancel" or "shutdown"."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Progress(Protocol):
    def gradient_step(self, metrics: Dict[str, float]) -> None: ...

    def stop_reason(self) -> Optional[str]: ...

    def state_due(self, step: int) -> bool: ...

    def save_state(self, step: int, data: bytes) -> None: ...


def train(module: torch.nn.Module, inputs: dict, progress: Progress, resume: Optional[dict] = None,
          max_tokens: int = 16384) -> Dict[str, float]:
    """Takes the job's steps (after ``resume``'s, a state read by state.read_state) and returns the
    checkpoint's metrics; the module ends with the weights to upload."""
    if inputs["mode"] != "lora":
        raise ValueError("anneal-worker trains LoRA adapters only: full-weights jobs are out of its scope")
    optimizer = adamw(module)
    job = SftRun(module, inputs, max_tokens) if inputs["kind"] == "sft" else RlRun(module, inputs)
    job.prepare(resumed=resume is not None)
    start = job.restore(resume, optimizer) if resume else 0
    done: List[Dict[str, float]] = []
    reason = progress.stop_reason()
    if reason:
        raise Stopped(reason)
    for metrics in job.steps(optimizer, start):
        done.append(metrics)
        progress.gradient_step(finite(metrics))
        step, reason = int(metrics["step"]), progress.stop_reason()
        if reason == "cancel":
            raise Stopped(reason)
        # A shutdown after the last step lets the job complete; before it, the state is saved first.
        if step < job.num_steps and (reason or progress.state_due(step)):
            progress.save_state(step, job.state(step, optimizer))
            if reason:
                raise Stopped(reason)
    metrics = job.finish()
    for key in MEANS:
        values = [m[key] for m in done if key in m and math.isfinite(m[key])]
        if values:
            metrics[f"train/{key}"] = sum(values) / len(values)
    return finite(metrics)


def finite(metrics: Dict[str, float]) -> Dict[str, float]:
    """Metrics as JSON carries them: a NaN (val/loss without weighted tokens) is left out."""
    return {k: v for k, v in metrics.items() if math.isfinite(v)}


class SftRun:
    def __init__(self, module, inputs: dict, max_tokens: int):
        self.module, self.inputs, self.max_tokens = module, inputs, max_tokens
        self.sft = inputs["sft"]
        rows = self.sft["rows"]
        self.validation = [rows[r] for example in self.sft["validation"] for r in example]
        self.num_steps = len(self.sft["steps"])
        self.history: List[List[float]] = []  # [epoch, val/loss] of each epoch's end
        self.best: Optional[Dict[str, torch.Tensor]] = None
        self.best_epoch, self.best_loss, self.since_best, self.epochs_done = 0, math.inf, 0, 0
        self.base_loss = math.nan

    def prepare(self, resumed: bool) -> None:
        self.base_loss = self._validation_loss()  # the starting weights', before any restore

    def restore(self, state: dict, optimizer) -> int:
        step = restore(state, self.module, optimizer)
        for epoch, loss in state.get("history", []):
            self._observe(int(epoch), float(loss))
        self.best = state.get("best")
        self.epochs_done = step // self.sft["steps_per_epoch"]
        return step

    def steps(self, optimizer, start: int) -> Iterator[Dict[str, float]]:
        if self._should_stop():
            return
        rows, examples, per_epoch = self.sft["rows"], self.sft["examples"], self.sft["steps_per_epoch"]
        for k in range(start, self.num_steps):
            plan, step = self.sft["steps"][k], k + 1
            step_rows = [rows[r] for e in plan["examples"] for r in examples[e]]
            metrics = sft_step(self.module, optimizer, step_rows, len(plan["examples"]), plan["learning_rate"], step,
                               self.inputs["seed"], self.inputs["max_grad_norm"], self.max_tokens)
            if step % per_epoch == 0:
                self.epochs_done = metrics["epoch"] = step // per_epoch
                if self.validation:
                    loss = self._validation_loss()
                    if self._observe(self.epochs_done, loss):
                        self.best = adapter_tensors(self.module)
                    metrics["val/loss"] = loss
            yield metrics
            if self._should_stop():
                return

    def state(self, step: int, optimizer) -> bytes:
        return state_bytes(step, self.module, optimizer, self.history, self.best)

    def finish(self) -> Dict[str, float]:
        if self.best is not None and self.best_epoch < self.epochs_done:
            load_adapter_tensors(self.module, self.best)
        metrics = {"train/num_examples": len(self.sft["examples"]), "train/epochs": self.epochs_done}
        if self.validation:
            metrics.update({"val/loss": self._validation_loss(), "val/base_loss": self.base_loss, "val/best_epoch": self.best_epoch})
        return metrics

    def _validation_loss(self) -> float:
        return validation_loss(self.module, self.validation, self.max_tokens) if self.validation else math.nan

    def _observe(self, epoch: int, loss: float) -> bool:
        """Early stopping (lib/training/sft/early-stopping.ts): true when the epoch is the best so far."""
        self.history.append([epoch, loss])
        if loss < self.best_loss:
            self.best_loss, self.best_epoch, self.since_best = loss, epoch, 0
            return True
        self.since_best += 1
        return False

    def _should_stop(self) -> bool:
        return bool(self.validation) and self.since_best >= self.sft["patience"]


class RlRun:
    def __init__(self, module, inputs: dict):
        self.module, self.inputs = module, inputs
        self.rl = inputs["rl"]
        self.settings = LossSettings.from_json(self.rl["loss"])
        self.stats = {k: self.rl["stats"][k] for k in STEP_STATS}
        self.num_steps = len(self.rl["steps"])
        self.old_logprobs: List[Optional[torch.Tensor]] = [None] * self.num_steps
        self.served: Optional[float] = None

    def prepare(self, resumed: bool) -> None:
        """At the start weights: the served-vs-trainer gap (not again on a resumed attempt), then
        precalculate_logprobs' π_old (a resumed attempt takes them from the same start weights)."""
        steps = self.rl["steps"]
        if not resumed and steps:
            self.served = served_abs_log_ratio(self.module, steps[0])
        if self.rl["precalculate_logprobs"]:
            for k, step in enumerate(steps):
                batch = rl_step_batch(step)
                trainable = batch.mask > 0
                batch.old_logprobs[trainable] = policy_logprobs(self.module, step)[trainable]
                self.old_logprobs[k] = batch.old_logprobs

    def restore(self, state: dict, optimizer) -> int:
        return restore(state, self.module, optimizer)

    def steps(self, optimizer, start: int) -> Iterator[Dict[str, float]]:
        for k in range(start, self.num_steps):
            metrics = rl_step(self.module, optimizer, self.rl["steps"][k], self.settings, self.rl["learning_rate"], self.stats,
                              k + 1, self.inputs["seed"], self.inputs["max_grad_norm"], self.old_logprobs[k])
            if k == 0 and self.served is not None:
                metrics["served_abs_log_ratio"] = self.served
            yield metrics

    def state(self, step: int, optimizer) -> bytes:
        return state_bytes(step, self.module, optimizer)

    def finish(self) -> Dict[str, float]:
        stats = self.rl["stats"]
        return {f"train/{k}": stats[k] for k in (*STEP_STATS, "num_trajectories")}
