"""The worker on real architectures: random-weight tiny Qwen2 and Llama models made from their
Hugging Face configs (anneal-worker make-random-model), the probe's logprobs, an SFT and an RL job
through PEFT, the adapter exported as the PEFT zip Anneal imports (and loaded back by PEFT with the
same logits), and a state resumed into a fresh adapter. Runs wherever transformers and peft import
(CPU is fine); skips, saying why, where they do not."""
import io
import json
import os
import tarfile
import tempfile
import unittest
import zipfile

import torch

from tests.test_jobs import Recorder, rl_inputs, sft_inputs

try:
    import peft  # noqa: F401
    import transformers  # noqa: F401

    MISSING = None
except ImportError as e:
    MISSING = f"transformers and peft are not importable here ({e}); the loss, step and job tests above ran on torch alone"

TINY = {"vocab_size": 64, "hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
        "num_key_value_heads": 2, "max_position_embeddings": 64}
ARCHITECTURES = {"qwen2": {"model_type": "qwen2", "tie_word_embeddings": True, **TINY},
                 "llama": {"model_type": "llama", "tie_word_embeddings": False, **TINY}}
LORA = {"rank": 4, "alpha": 8, "dropout": 0.0, "target_modules": ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]}
NAME = "test/tiny"


@unittest.skipIf(MISSING, MISSING)
class TransformersPeftTest(unittest.TestCase):
    def test_qwen2(self):
        self.check("qwen2")

    def test_llama(self):
        self.check("llama")

    def test_a_job_bundle(self):
        """job.tar → anneal-worker run-bundle → result.tar with the steps' events, metrics and the adapter."""
        from anneal_worker.bundle import BUNDLE_VERSION, run_bundle
        from anneal_worker.model import Bases

        with tempfile.TemporaryDirectory() as folder:
            model_dir = self.random_model(folder, "qwen2")
            lease = {"token": "lease-token", "job_id": "job-1", "attempt": 1, "kind": "sft", "mode": "lora",
                     "base": {"name": "tiny", "hf_name": NAME}, "expires_at": "2100-01-01T00:00:00Z"}
            job = {"version": BUNDLE_VERSION, "lease": lease, "inputs": {**sft_inputs(epochs=1), "lora": LORA}}
            job_tar, result_tar = os.path.join(folder, "job.tar"), os.path.join(folder, "result.tar")
            with tarfile.open(job_tar, "w") as tar:
                data = json.dumps(job).encode()
                info = tarfile.TarInfo("job.json")
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
            run_bundle(job_tar, result_tar, Bases({NAME: model_dir}, torch.device("cpu")), max_tokens=4096, checkpointing=False)
            with tarfile.open(result_tar) as tar:
                self.assertEqual(sorted(tar.getnames()), ["adapter.zip", "result.json"])
                result = json.load(tar.extractfile("result.json"))
                adapter = tar.extractfile("adapter.zip").read()
            self.assertEqual((result["version"], result["token"], result["job_id"]), (BUNDLE_VERSION, "lease-token", "job-1"))
            self.assertEqual([e["data"]["step"] for e in result["events"]], [1, 2])
            self.assertTrue(all(e["type"] == "gradient_step" for e in result["events"]))
            self.assertIn("val/loss", result["metrics"])
            with zipfile.ZipFile(io.BytesIO(adapter)) as z:
                self.assertEqual(json.loads(z.read("adapter_config.json"))["base_model_name_or_path"], NAME)

    def random_model(self, folder: str, architecture: str) -> str:
        from anneal_worker.random_model import make_random_model

        config, out = os.path.join(folder, "config.json"), os.path.join(folder, "model")
        with open(config, "w") as f:
            json.dump(ARCHITECTURES[architecture], f)
        make_random_model(config, out, seed=1)
        return out

    def check(self, architecture: str):
        from anneal_worker.jobs import Stopped, train
        from anneal_worker.model import Bases, adapter_zip, probe_logprobs, with_adapter, without_adapter
        from anneal_worker.state import adapter_tensors, read_state, restore
        from anneal_worker.steps import adamw

        with tempfile.TemporaryDirectory() as folder:
            bases = Bases({NAME: self.random_model(folder, architecture)}, torch.device("cpu"))
            base = bases.get(NAME)

            probe = probe_logprobs(base, list(range(1, 17)))
            self.assertEqual(len(probe), 16)
            self.assertEqual(probe[0], 0)
            self.assertTrue(all(v < 0 for v in probe[1:]))

            inputs = {**sft_inputs(epochs=2), "lora": LORA}
            model = with_adapter(base, LORA, seed=3, start_zip=None)
            progress = Recorder()
            metrics = train(model, inputs, progress)
            self.assertEqual(len(progress.steps), 4)
            self.assertLess(metrics["val/loss"], metrics["val/base_loss"])

            exported = adapter_zip(model, NAME)
            with zipfile.ZipFile(io.BytesIO(exported)) as z:
                self.assertEqual(sorted(z.namelist()), ["adapter_config.json", "adapter_model.safetensors"])
                adapter_config = json.loads(z.read("adapter_config.json"))
            self.assertEqual(adapter_config["base_model_name_or_path"], NAME)
            self.assertEqual(adapter_config["r"], 4)
            self.assertEqual(sorted(adapter_config["target_modules"]), sorted(LORA["target_modules"]))
            ids = torch.tensor([[1, 2, 3, 4, 5, 6]])
            model.eval()
            with torch.no_grad():
                trained = model(input_ids=ids, attention_mask=torch.ones_like(ids)).logits
            base = without_adapter(model)

            # PEFT loads the zip back onto the base with the same logits, and RL continues from it.
            continued = with_adapter(base, LORA, seed=0, start_zip=exported)
            continued.eval()
            with torch.no_grad():
                torch.testing.assert_close(continued(input_ids=ids, attention_mask=torch.ones_like(ids)).logits, trained)
            stopped = Recorder(stop_after=1)
            with self.assertRaises(Stopped):
                train(continued, {**rl_inputs(precalculate=True), "lora": LORA}, stopped)
            [(step, state)] = stopped.states
            saved = adapter_tensors(continued)
            base = without_adapter(continued)

            resumed = with_adapter(base, LORA, seed=0, start_zip=exported)
            self.assertEqual(restore(read_state(state), resumed, adamw(resumed)), step)
            for name, tensor in adapter_tensors(resumed).items():
                torch.testing.assert_close(tensor, saved[name])


if __name__ == "__main__":
    unittest.main()
