"""One loss, two trainers: anneal_worker.loss reproduces the loss and ∂L/∂log π (by autograd, in
float64) of every case of tests/fixtures/rl-loss-fixture.json, which Anneal's own trainer wrote
(scripts/make-rl-loss-fixture.ts) and its unit test recomputes. Needs torch only."""
import json
import math
import os
import unittest

import torch

from anneal_worker.loss import LossSettings, PolicyBatch, policy_loss, weighted_cross_entropy

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "fixtures", "rl-loss-fixture.json")
RTOL, ATOL = 1e-5, 1e-9


def loss_and_grad(inputs: dict):
    f64 = lambda values: torch.tensor(values, dtype=torch.float64)
    logprobs = f64(inputs["logprobs"]).requires_grad_(True)
    if inputs["kind"] == "sft":
        loss = weighted_cross_entropy(logprobs, f64(inputs["weights"]))
    else:
        batch = PolicyBatch(
            mask=f64(inputs["mask"]),
            old_logprobs=f64([math.nan if v is None else v for v in inputs["old_logprobs"]]),
            advantages=f64(inputs["advantages"]),
            weights=f64(inputs["weights"]),
            segments=torch.tensor(inputs["segments"], dtype=torch.long),
            num_trajectories=inputs["num_trajectories"],
        )
        loss, _ = policy_loss(logprobs, batch, LossSettings.from_json(inputs["config"]))
    loss.backward()
    return loss.item(), logprobs.grad.tolist()


class LossFixtureTest(unittest.TestCase):
    def test_every_case(self):
        with open(FIXTURE) as f:
            cases = json.load(f)["cases"]
        self.assertGreater(len(cases), 10)
        for case in cases:
            with self.subTest(case["name"]):
                loss, grad = loss_and_grad(case["inputs"])
                expected = case["expected"]
                self.assertTrue(math.isclose(loss, expected["loss"], rel_tol=RTOL, abs_tol=ATOL), f"loss {loss} != {expected['loss']}")
                self.assertEqual(len(grad), len(expected["grad"]))
                for t, (g, e) in enumerate(zip(grad, expected["grad"])):
                    self.assertTrue(math.isclose(g, e, rel_tol=RTOL, abs_tol=ATOL), f"grad[{t}] {g} != {e}")


if __name__ == "__main__":
    unittest.main()
