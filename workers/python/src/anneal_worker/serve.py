"""``anneal-worker serve``: the remote worker's life (docs/workers.md, "A worker's life"): lease,
answer base probes, fetch the inputs, the start adapter and a saved state, train with heartbeats,
report steps as events, save states now and then, and complete with the PEFT zip; cancel → fail
{cancelled}, SIGTERM → save a state and release, a 409 → the lease is lost and the job left alone."""
import logging
import os
import random
import socket
import threading
import time
import traceback
from typing import Dict, Optional

from . import PROTOCOL_VERSION
from .client import Client, LeaseLost, Refused
from .jobs import Stopped, train
from .model import Bases, adapter_zip, memory_bytes, probe_logprobs, with_adapter, without_adapter
from .state import FORMAT, read_state

log = logging.getLogger("anneal-worker")


class LeaseProgress:
    """Progress over HTTP: events per step, states through chunked uploads, and the heartbeat's
    news (cancel, a lost lease) between steps."""

    def __init__(self, client: Client, token: str, shutdown: threading.Event, state_seconds: float):
        self.client, self.path, self.token = client, f"/v1/workers/leases/{token}", token
        self.shutdown, self.state_seconds = shutdown, state_seconds
        self.cancel, self.lost = threading.Event(), threading.Event()
        self.saved_at = time.monotonic()

    def gradient_step(self, metrics: Dict[str, float]) -> None:
        answer = self.client.call("POST", f"{self.path}/events", {"events": [{"type": "gradient_step", "data": metrics}]})
        if answer.get("cancel_requested"):
            self.cancel.set()

    def stop_reason(self) -> Optional[str]:
        if self.lost.is_set():
            raise LeaseLost("the heartbeat was refused")
        if self.cancel.is_set():
            return "cancel"
        return "shutdown" if self.shutdown.is_set() else None

    def state_due(self, step: int) -> bool:
        return time.monotonic() - self.saved_at >= self.state_seconds

    def save_state(self, step: int, data: bytes) -> None:
        upload_id = self.client.upload(self.token, "state", data)
        self.client.call("POST", f"{self.path}/state", {"upload_id": upload_id, "step": step, "format": FORMAT})
        self.saved_at = time.monotonic()
        log.info("saved a state after step %d (%.1f MiB)", step, len(data) / 2**20)

    def heartbeat(self, every_s: float, done: threading.Event) -> None:
        while not done.wait(every_s):
            try:
                if self.client.call("POST", f"{self.path}/heartbeat", {}).get("cancel_requested"):
                    self.cancel.set()
            except LeaseLost:
                self.lost.set()
                return
            except Exception as e:  # the lease's expiry decides; the next beat may get through
                log.warning("heartbeat failed: %s", e)


class Worker:
    def __init__(self, client: Client, bases: Bases, max_rank: int, max_tokens: int, state_seconds: float, checkpointing: bool):
        self.client, self.bases, self.max_rank = client, bases, max_rank
        self.max_tokens, self.state_seconds, self.checkpointing = max_tokens, state_seconds, checkpointing
        self.instance = f"{socket.gethostname()}:{os.getpid()}:{random.getrandbits(16):04x}"
        self.shutdown = threading.Event()

    def run(self) -> int:
        while not self.shutdown.is_set():
            if not self.bases.names:
                log.error("no base left to offer: every one was refused by its probe")
                return 1
            try:
                answer = self.client.call("POST", "/v1/workers/lease", self.lease_request())
            except (OSError, Refused) as e:
                log.warning("lease request failed: %s; trying again in 10 s", e)
                self.shutdown.wait(10)
                continue
            if answer.get("probe"):
                self.answer_probe(answer["probe"])
            elif answer.get("lease"):
                self.run_lease(answer["lease"])
            else:
                self.shutdown.wait((answer.get("retry_after_ms") or 2000) / 1000)
        return 0

    def lease_request(self) -> dict:
        capabilities = {"kinds": ["sft", "rl"], "modes": ["lora"], "bases": self.bases.names,
                        "max_rank": self.max_rank, "memory_bytes": memory_bytes(self.bases.device)}
        return {"instance": self.instance, "version": PROTOCOL_VERSION, "capabilities": capabilities}

    def answer_probe(self, probe: dict) -> None:
        name = probe["base"]
        logprobs = probe_logprobs(self.bases.get(name), probe["ids"])
        try:
            self.client.call("POST", "/v1/workers/probe", {"instance": self.instance, "base": name, "logprobs": logprobs})
            log.info("base %s: probe accepted", name)
        except Refused as e:
            log.error("base %s refused by its probe, no longer offered: %s", name, e.body)
            self.bases.drop(name)

    def run_lease(self, lease: dict) -> None:
        token, job = lease["token"], lease["job_id"]
        name = lease["base"]["hf_name"] if lease["base"].get("hf_name") in self.bases.sources else lease["base"]["name"]
        log.info("job %s attempt %s: %s on %s", job, lease.get("attempt"), lease["kind"], name)
        progress = LeaseProgress(self.client, token, self.shutdown, self.state_seconds)
        done = threading.Event()
        beat = threading.Thread(target=progress.heartbeat, args=(lease["heartbeat_ms"] / 1000, done), daemon=True)
        beat.start()
        model = None
        try:
            inputs = self.client.call("GET", f"{progress.path}/inputs")
            if inputs["mode"] != "lora":
                raise ValueError("anneal-worker trains LoRA adapters only: full-weights jobs are out of its scope")
            start = (inputs.get("start") or {}).get("adapter")
            start_zip = self.client.download(start) if start else None
            resume = self.saved_state(inputs.get("resume"))
            model = with_adapter(self.bases.get(name), inputs["lora"], inputs["seed"], start_zip, self.checkpointing)
            metrics = train(model, inputs, progress, resume, self.max_tokens)
            upload_id = self.client.upload(token, "checkpoint", adapter_zip(model, name))
            answer = self.client.call("POST", f"{progress.path}/complete", {"upload_id": upload_id, "metrics": metrics})
            log.info("job %s: checkpoint step %s", job, answer.get("checkpoint_step"))
        except LeaseLost as e:
            log.warning("job %s: the lease is lost (%s); leaving the job alone", job, e)
        except Stopped as stopped:
            body = {"cancelled": True} if stopped.reason == "cancel" else {"release": True}
            self.fail(progress.path, body, job)
        except Exception as e:
            log.error("job %s failed:\n%s", job, traceback.format_exc())
            first = (str(e).strip().splitlines() or [""])[0]
            self.fail(progress.path, {"message": f"{type(e).__name__}: {first}"[:2000], "cancelled": False}, job)
        finally:
            done.set()
            if model is not None:
                without_adapter(model)
            else:
                self.bases.release()

    def saved_state(self, resume: Optional[dict]) -> Optional[dict]:
        if not resume:
            return None
        if resume["format"] != FORMAT:
            log.info("the saved state is %s, not %s: starting over", resume["format"], FORMAT)
            return None
        log.info("resuming after step %d", resume["step"])
        return read_state(self.client.download(resume["url"]))

    def fail(self, path: str, body: dict, job: str) -> None:
        try:
            self.client.call("POST", f"{path}/fail", body)
            log.info("job %s: %s", job, body)
        except LeaseLost:
            pass
