"""``anneal-worker run-bundle job.tar -o result.tar``: a job for a GPU machine that cannot reach
Anneal (docs/workers.md, "Job bundles"). job.tar holds job.json ({"version", "lease", "inputs"}, the
inputs inline) and start-adapter.zip when the job continues an adapter; result.tar gets
result.json ({"version", "token", "job_id", "events", "metrics"}) and adapter.zip (PEFT)."""
import io
import json
import logging
import tarfile
import time
from typing import Dict, List, Optional

from .jobs import train
from .model import Bases, adapter_zip, with_adapter, without_adapter

log = logging.getLogger("anneal-worker")
BUNDLE_VERSION = 1


class CollectedProgress:
    """Progress kept for result.json: every step's event; no states (nothing to resume to)."""

    def __init__(self):
        self.events: List[dict] = []
        self.started = time.monotonic()

    def gradient_step(self, metrics: Dict[str, float]) -> None:
        self.events.append({"type": "gradient_step", "data": metrics})
        log.info("step %d: loss %.4f (%.0f s)", metrics["step"], metrics["loss"], time.monotonic() - self.started)

    def stop_reason(self) -> Optional[str]:
        return None

    def state_due(self, step: int) -> bool:
        return False

    def save_state(self, step: int, data: bytes) -> None:
        raise AssertionError("a bundle saves no state")


def read_bundle(path: str) -> tuple:
    with tarfile.open(path) as tar:
        names = tar.getnames()
        if "job.json" not in names:
            raise ValueError(f"{path} holds no job.json: not a job bundle")
        job = json.load(tar.extractfile("job.json"))
        start = tar.extractfile("start-adapter.zip").read() if "start-adapter.zip" in names else None
    if job.get("version") != BUNDLE_VERSION:
        raise ValueError(f"job bundle version {job.get('version')}; this worker reads version {BUNDLE_VERSION}")
    return job, start


def write_result(path: str, result: dict, adapter: bytes) -> None:
    with tarfile.open(path, "w") as tar:
        for name, data in (("result.json", json.dumps(result).encode()), ("adapter.zip", adapter)):
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), int(time.time()), 0o644
            tar.addfile(info, io.BytesIO(data))


def run_bundle(job_tar: str, result_tar: str, bases: Bases, max_tokens: int, checkpointing: bool) -> None:
    job, start_zip = read_bundle(job_tar)
    base = job["lease"]["base"]
    name = next((n for n in (base.get("hf_name"), base.get("name")) if n in bases.sources), None)
    if name is None:
        raise SystemExit(f"the job trains on {base.get('hf_name') or base.get('name')}; give it with --base or --map (this worker has {bases.names or 'none'})")
    inputs = job["inputs"]
    if (inputs.get("start") or {}).get("adapter") and start_zip is None:
        raise ValueError("the job continues an adapter, but the bundle holds no start-adapter.zip")
    log.info("job %s: %s on %s, expires %s", job["lease"]["job_id"], inputs["kind"], name, job["lease"].get("expires_at"))
    model = with_adapter(bases.get(name), inputs["lora"], inputs["seed"], start_zip, checkpointing)
    try:
        result = train_bundle(job, model, max_tokens)
        write_result(result_tar, result, adapter_zip(model, name))
    finally:
        without_adapter(model)  # the base as it was, for a next bundle in the same process
    log.info("wrote %s: %d steps; POST it to /v1/preview/training-jobs/%s/bundle-result", result_tar, len(result["events"]), job["lease"]["job_id"])


def train_bundle(job: dict, model, max_tokens: int) -> dict:
    """Trains the bundle's inputs on ``model`` (the base with its adapter); returns result.json."""
    progress = CollectedProgress()
    metrics = train(model, job["inputs"], progress, None, max_tokens)
    lease = job["lease"]
    return {"version": BUNDLE_VERSION, "token": lease["token"], "job_id": lease["job_id"], "events": progress.events, "metrics": metrics}
