"""The GPU check (issue #28): a random-weight model in Qwen2.5-0.5B's shape made from its config (no
download), then an SFT and an RL job bundle run through `anneal-worker run-bundle`'s code on it;
prints each job's training tokens/s and peak GPU memory as JSON. The bundles are synthetic (random
token ids, docs/workers.md's format); Anneal's own come from POST …/bundle. Needs a GPU, torch,
transformers and peft:  python3 tests/gpu_check.py --out /tmp/gpu-check"""
import argparse
import io
import json
import os
import random
import sys
import tarfile
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))

from anneal_worker.bundle import BUNDLE_VERSION, run_bundle  # noqa: E402
from anneal_worker.model import Bases  # noqa: E402
from anneal_worker.random_model import make_random_model  # noqa: E402

NAME = "Qwen/Qwen2.5-0.5B-Instruct"
QWEN25_05B = {"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "hidden_size": 896, "intermediate_size": 4864,
              "num_hidden_layers": 24, "num_attention_heads": 14, "num_key_value_heads": 2, "vocab_size": 151936,
              "max_position_embeddings": 32768, "rms_norm_eps": 1e-6, "rope_theta": 1000000.0, "tie_word_embeddings": True,
              "hidden_act": "silu", "bos_token_id": 151643, "eos_token_id": 151645, "use_sliding_window": False}
LORA = {"rank": 16, "alpha": 32, "dropout": 0.0, "target_modules": ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]}


def sft_job(rng, rows_per_step: int, length: int, steps: int) -> dict:
    rows = [{"ids": [rng.randrange(151000) for _ in range(length)], "weights": [0] * (length // 2) + [1] * (length - length // 2)}
            for _ in range(rows_per_step * steps)]
    plan = [{"examples": list(range(k * rows_per_step, (k + 1) * rows_per_step)), "learning_rate": 1e-4} for k in range(steps)]
    return {"kind": "sft", "sft": {"rows": rows, "examples": [[i] for i in range(len(rows))], "validation": [], "steps": plan,
                                   "steps_per_epoch": steps, "patience": 1}, "rl": None}


def rl_job(rng, rows_per_step: int, length: int, steps: int) -> dict:
    def row(segment):
        prompt = length // 2
        return {"ids": [rng.randrange(151000) for _ in range(length)], "mask": [0] * prompt + [1] * (length - prompt),
                "logprobs": [None] * prompt + [-rng.random() * 3 for _ in range(length - prompt)],
                "advantages": [0] + [rng.choice([-1.0, 1.0])] * (length - 1), "weights": [0] + [1.0] * (length - 1),
                "segments": [-1] + [segment] * (length - 1)}
    loss = {"ppo": False, "epsilon": 1.0, "epsilon_high": 4.0, "importance_sampling_level": "token",
            "max_negative_advantage_importance_sampling_weight": None, "mask_prob_ratio": False, "kimi_k2_tau": 0}
    stats = {"reward": 0.5, "reward_std_dev": 0.5, "num_groups_submitted": 1, "num_groups_trainable": 1, "num_trajectories": rows_per_step * steps}
    plan = [{"rows": [row(j) for j in range(rows_per_step)], "num_trajectories": rows_per_step} for _ in range(steps)]
    return {"kind": "rl", "sft": None, "rl": {"steps": plan, "loss": loss, "learning_rate": 1e-5, "precalculate_logprobs": False, "stats": stats}}


def bundle(path: str, kind_part: dict, job_id: str) -> None:
    inputs = {"mode": "lora", "step": 1, "seed": 1, "pad_id": 151643, "max_grad_norm": 1.0, "lora": LORA,
              "start": {"adapter": None}, "resume": None, **kind_part}
    lease = {"token": "gpu-check", "job_id": job_id, "attempt": 1, "kind": inputs["kind"], "mode": "lora",
             "base": {"name": "qwen2.5-0.5b", "hf_name": NAME}, "lease_ms": 0, "heartbeat_ms": 0, "expires_at": "2100-01-01T00:00:00Z"}
    data = json.dumps({"version": BUNDLE_VERSION, "lease": lease, "inputs": inputs}).encode()
    with tarfile.open(path, "w") as tar:
        info = tarfile.TarInfo("job.json")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--rows", type=int, default=8)
    parser.add_argument("--length", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=6)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    model_dir = os.path.join(args.out, "qwen2.5-0.5b-random")
    config = os.path.join(args.out, "config.json")
    with open(config, "w") as f:
        json.dump(QWEN25_05B, f)
    started = time.time()
    make_random_model(config, model_dir, seed=0, dtype="bfloat16")
    report = {"device": torch.cuda.get_device_name(0), "torch": torch.__version__, "model_seconds": round(time.time() - started, 1)}
    import peft
    import transformers
    report.update(transformers=transformers.__version__, peft=peft.__version__)
    bases = Bases({NAME: model_dir}, torch.device("cuda"))
    bases.get(NAME)
    rng = random.Random(0)
    for kind, part in (("sft", sft_job(rng, args.rows, args.length, args.steps)), ("rl", rl_job(rng, args.rows, args.length, args.steps))):
        job_tar, result_tar = os.path.join(args.out, f"{kind}-job.tar"), os.path.join(args.out, f"{kind}-result.tar")
        bundle(job_tar, part, f"gpu-check-{kind}")
        torch.cuda.reset_peak_memory_stats()
        torch.cuda.synchronize()
        started = time.time()
        run_bundle(job_tar, result_tar, bases, max_tokens=16384, checkpointing=False)
        torch.cuda.synchronize()
        seconds = time.time() - started
        with tarfile.open(result_tar) as tar:
            result = json.load(tar.extractfile("result.json"))
        tokens = args.rows * args.length * args.steps
        report[kind] = {"steps": len(result["events"]), "tokens": tokens, "seconds": round(seconds, 2),
                        "tokens_per_second": round(tokens / seconds), "peak_gib": round(torch.cuda.max_memory_allocated() / 2**30, 2),
                        "first_loss": result["events"][0]["data"]["loss"], "last_loss": result["events"][-1]["data"]["loss"]}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
