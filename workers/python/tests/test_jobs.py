"""The worker's SFT and RL jobs (anneal_worker.jobs) on a stand-in torch model: the metrics Anneal's
trainer reports, val/loss and early stopping with the best epoch's weights, precalculate_logprobs,
states that resume to the same weights, cancel and shutdown between steps. Needs torch only."""
import math
import unittest

import torch

from anneal_worker.jobs import Stopped, train
from anneal_worker.state import adapter_tensors, read_state
from tests.stand_in import StandInLM

SFT_STEP_KEYS = {"step", "loss", "grad_norm", "learning_rate", "num_trajectories", "num_trainable_tokens"}
RL_STEP_KEYS = {"step", "loss", "policy_loss", "entropy", "grad_norm", "learning_rate", "num_trajectories",
                "num_trainable_tokens", "mean_ratio", "reward", "reward_std_dev", "num_groups_submitted", "num_groups_trainable"}


class Recorder:
    """Progress that keeps the steps and states, and asks to stop after ``stop_after`` steps."""

    def __init__(self, stop_after=None, reason="shutdown", every=None):
        self.steps, self.states = [], []
        self.stop_after, self.reason, self.every = stop_after, reason, every

    def gradient_step(self, metrics):
        self.steps.append(metrics)

    def stop_reason(self):
        return self.reason if self.stop_after is not None and len(self.steps) >= self.stop_after else None

    def state_due(self, step):
        return self.every is not None and step % self.every == 0

    def save_state(self, step, data):
        self.states.append((step, data))


def sft_inputs(epochs, steps_per_epoch=2, validation=(1, 2, 3, 4), patience=10, lr=0.05, seed=3):
    train_rows = [{"ids": [1, 2, 3, 4], "weights": [0, 0, 1, 1]}, {"ids": [5, 2, 3, 4, 6], "weights": [0, 0, 1, 1, 1]}] * 2
    rows = train_rows + [{"ids": list(validation), "weights": [0, 0] + [1] * (len(validation) - 2)}]
    per_step = 4 // steps_per_epoch
    steps = [{"examples": list(range(j * per_step, (j + 1) * per_step)), "learning_rate": lr}
             for _ in range(epochs) for j in range(steps_per_epoch)]
    return {"kind": "sft", "mode": "lora", "step": 1, "seed": seed, "pad_id": 0, "max_grad_norm": 1.0,
            "lora": {"rank": 2, "alpha": 4, "dropout": 0, "target_modules": ["q_proj"]},
            "sft": {"rows": rows, "examples": [[0], [1], [2], [3]], "validation": [[4]] if validation else [],
                    "steps": steps, "steps_per_epoch": steps_per_epoch, "patience": patience},
            "rl": None}


def rl_row(ids, prompt, advantage, segment, logprob=-2.0):
    n = len(ids)
    trained = [i >= prompt for i in range(n)]
    return {"ids": ids, "mask": [1 if t else 0 for t in trained],
            "logprobs": [logprob if t else None for t in trained],
            "advantages": [advantage if i > 0 else 0 for i in range(n)],
            "weights": [1.0 if i > 0 else 0 for i in range(n)],
            "segments": [segment if i > 0 else -1 for i in range(n)]}


def rl_inputs(precalculate, ppo=False):
    step = {"rows": [rl_row([1, 2, 3, 4], 2, 1.0, 0), rl_row([1, 2, 5, 6, 7], 2, -1.0, 1)], "num_trajectories": 2}
    loss = {"ppo": ppo, "epsilon": 0.2 if ppo else 1.0, "epsilon_high": 0.2 if ppo else 4.0, "importance_sampling_level": "token",
            "max_negative_advantage_importance_sampling_weight": None, "mask_prob_ratio": False, "kimi_k2_tau": 0}
    stats = {"reward": 0.5, "reward_std_dev": 0.5, "num_groups_submitted": 1, "num_groups_trainable": 1, "num_trajectories": 2}
    return {"kind": "rl", "mode": "lora", "step": 2, "seed": 1, "pad_id": 0, "max_grad_norm": 1.0, "lora": None, "sft": None,
            "rl": {"steps": [step, step, step], "loss": loss, "learning_rate": 0.05, "precalculate_logprobs": precalculate, "stats": stats}}


class SftJobTest(unittest.TestCase):
    def test_steps_epochs_and_validation(self):
        progress = Recorder()
        metrics = train(StandInLM(), sft_inputs(epochs=3), progress)
        self.assertEqual([m["step"] for m in progress.steps], [1, 2, 3, 4, 5, 6])
        for m in progress.steps:
            self.assertLessEqual(SFT_STEP_KEYS, set(m))
        self.assertEqual([m.get("epoch") for m in progress.steps], [None, 1, None, 2, None, 3])
        self.assertTrue(all("val/loss" in m for m in progress.steps if "epoch" in m))
        self.assertEqual(progress.steps[0]["num_trajectories"], 2)
        self.assertEqual(progress.steps[0]["num_trainable_tokens"], 5)
        self.assertLess(progress.steps[-1]["loss"], progress.steps[0]["loss"])
        self.assertLess(metrics["val/loss"], metrics["val/base_loss"])
        self.assertEqual(metrics["train/epochs"], 3)
        self.assertEqual(metrics["train/num_examples"], 4)
        self.assertIn("train/loss", metrics)

    def test_early_stopping_keeps_the_best_epoch(self):
        # The validation row wants 7 where training teaches 3: val/loss rises from the first epoch on.
        progress = Recorder()
        model = StandInLM()
        metrics = train(model, sft_inputs(epochs=4, steps_per_epoch=1, validation=(1, 2, 7), patience=1, lr=0.2), progress)
        self.assertEqual(len(progress.steps), 2, "stops after one epoch without a lower val/loss")
        self.assertEqual(metrics["val/best_epoch"], 1)
        self.assertAlmostEqual(metrics["val/loss"], progress.steps[0]["val/loss"], places=6)

    def test_a_state_resumes_to_the_same_weights(self):
        def model():
            m = StandInLM(dropout=0.3)
            return m
        whole = model()
        train(whole, sft_inputs(epochs=2), Recorder())
        stopped = Recorder(stop_after=3)
        with self.assertRaises(Stopped) as raised:
            train(model(), sft_inputs(epochs=2), stopped)
        self.assertEqual(raised.exception.reason, "shutdown")
        [(step, data)] = stopped.states
        self.assertEqual(step, 3)
        resumed = Recorder()
        train(model_resumed := model(), sft_inputs(epochs=2), resumed, resume=read_state(data))
        self.assertEqual([m["step"] for m in resumed.steps], [4])
        for name, tensor in adapter_tensors(whole).items():
            torch.testing.assert_close(adapter_tensors(model_resumed)[name], tensor, rtol=0, atol=1e-7)


class RlJobTest(unittest.TestCase):
    def test_metrics_and_precalculated_logprobs(self):
        progress = Recorder()
        metrics = train(StandInLM(), rl_inputs(precalculate=True), progress)
        self.assertEqual(len(progress.steps), 3)
        for m in progress.steps:
            self.assertLessEqual(RL_STEP_KEYS, set(m))
            self.assertTrue(all(isinstance(v, (int, float)) and math.isfinite(v) for v in m.values()))
        # π_old from the start weights: the first step is on-policy.
        self.assertAlmostEqual(progress.steps[0]["mean_ratio"], 1.0, places=6)
        self.assertNotAlmostEqual(progress.steps[1]["mean_ratio"], 1.0, places=4)
        self.assertIn("served_abs_log_ratio", progress.steps[0])
        self.assertNotIn("served_abs_log_ratio", progress.steps[1])
        self.assertEqual(progress.steps[0]["num_trainable_tokens"], 5)
        self.assertEqual(metrics["train/reward"], 0.5)
        self.assertEqual(metrics["train/num_trajectories"], 2)

    def test_the_policy_moves_toward_the_positive_advantage(self):
        model = StandInLM()
        before = model(input_ids=torch.tensor([[1, 2, 3, 4]]), attention_mask=torch.ones(1, 4)).logits.log_softmax(-1)[0, 1, 3]
        train(model, rl_inputs(precalculate=False, ppo=True), Recorder())
        after = model(input_ids=torch.tensor([[1, 2, 3, 4]]), attention_mask=torch.ones(1, 4)).logits.log_softmax(-1)[0, 1, 3]
        self.assertGreater(float(after), float(before))

    def test_cancel_stops_without_a_state(self):
        progress = Recorder(stop_after=1, reason="cancel")
        with self.assertRaises(Stopped) as raised:
            train(StandInLM(), rl_inputs(precalculate=False), progress)
        self.assertEqual(raised.exception.reason, "cancel")
        self.assertEqual(progress.states, [])

    def test_full_weights_jobs_are_refused(self):
        with self.assertRaisesRegex(ValueError, "LoRA adapters only"):
            train(StandInLM(), {**rl_inputs(precalculate=False), "mode": "full"}, Recorder())


if __name__ == "__main__":
    unittest.main()
