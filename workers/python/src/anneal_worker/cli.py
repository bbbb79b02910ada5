"""The ``anneal-worker`` command: serve, run-bundle, make-random-model."""
import argparse
import logging
import os
import signal
import sys
from typing import Dict, List

import torch

from .client import Client


def base_sources(bases: List[str], maps: List[str]) -> Dict[str, str]:
    """The name each base is offered under → where it loads from. ``--map NAME=DIR`` names a
    directory; ``--base`` is a hub name (read from the local Hugging Face cache) or a directory
    (offered under its path, unless a --map names it)."""
    sources: Dict[str, str] = {}
    for entry in maps:
        name, sep, folder = entry.partition("=")
        if not sep or not name or not folder:
            raise SystemExit(f"--map takes NAME=DIR, not {entry!r}")
        sources[name] = folder
    for base in bases:
        if base not in sources.values():
            sources[base] = base
    return sources


def common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base", action="append", default=[], help="a base: hub name (local cache only) or directory; repeatable")
    parser.add_argument("--map", action="append", default=[], metavar="NAME=DIR", help="offer directory DIR as base NAME (its hf_name)")
    parser.add_argument("--device", default=None, help="torch device (default: cuda when available, else cpu)")
    parser.add_argument("--max-tokens", type=int, default=16384, help="padded tokens per forward pass of an SFT step (memory)")
    parser.add_argument("--gradient-checkpointing", action="store_true", help="recompute activations in backward: less memory, ~30%% slower")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="anneal-worker", description="Trains Anneal's jobs with transformers + PEFT (docs/workers.md).")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="lease and train jobs from an Anneal server")
    serve.add_argument("--server", required=True, help="Anneal's URL, e.g. https://anneal.example.com")
    serve.add_argument("--key", default=os.environ.get("ANNEAL_WORKER_KEY"), help="worker key (awk-…; default $ANNEAL_WORKER_KEY)")
    serve.add_argument("--max-rank", type=int, default=256, help="the largest LoRA rank to take")
    serve.add_argument("--state-minutes", type=float, default=10, help="save a resumable state this often")
    common(serve)
    bundle = commands.add_parser("run-bundle", help="train a job bundle (job.tar) offline into result.tar")
    bundle.add_argument("job_tar")
    bundle.add_argument("-o", "--output", default="result.tar")
    common(bundle)
    random_model = commands.add_parser("make-random-model", help="a random-weight model from a Hugging Face config.json")
    random_model.add_argument("--config", required=True)
    random_model.add_argument("--out", required=True)
    random_model.add_argument("--seed", type=int, default=0)
    random_model.add_argument("--dtype", default="float32", choices=["float32", "bfloat16", "float16"])
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)

    from .model import Bases, default_device, require_transformers_and_peft

    require_transformers_and_peft()
    if args.command == "make-random-model":
        from .random_model import make_random_model

        make_random_model(args.config, args.out, args.seed, args.dtype)
        return 0
    device = torch.device(args.device) if args.device else default_device()
    bases = Bases(base_sources(args.base, args.map), device)
    if not bases.names:
        parser.error("give at least one --base or --map")
    if args.command == "run-bundle":
        from .bundle import run_bundle

        run_bundle(args.job_tar, args.output, bases, args.max_tokens, args.gradient_checkpointing)
        return 0
    if not args.key:
        parser.error("--key (or ANNEAL_WORKER_KEY) is required")
    from .serve import Worker

    worker = Worker(Client(args.server, args.key), bases, args.max_rank, args.max_tokens, args.state_minutes * 60, args.gradient_checkpointing)
    # SIGTERM/SIGINT: the current job saves a state and is released after its step; a second one exits.
    def stop(signum, frame):
        if worker.shutdown.is_set():
            raise SystemExit(130)
        logging.getLogger("anneal-worker").info("stopping after the current step (again to exit now)")
        worker.shutdown.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    return worker.run()
