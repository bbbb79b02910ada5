"""Leases through Anneal's worker routes with the worker's own HTTP client, progress and job code
(anneal_worker.client, serve.LeaseProgress, jobs.train), the model a small torch stand-in
(tests/stand_in.py) since the point is the protocol and Anneal's real inputs, not a model:
1. the SFT job: the base probe, the inputs trained step by step (events posted), a 20 MiB state
   uploaded in chunks and committed, a heartbeat, a release, and a stale token's 409 (LeaseLost);
2. the SFT job again: the resume point downloaded back, then the job cancelled;
3. the RL job: its inputs trained, then cancelled.
tests/python-worker-client.int.test.ts runs it against Anneal's route handlers. Reads {"server",
"key", "base", "probe_logprobs"} on stdin; prints what happened as JSON."""
import hashlib
import json
import os
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))
sys.path.insert(0, os.path.dirname(HERE))

from anneal_worker.client import Client, LeaseLost  # noqa: E402
from anneal_worker.jobs import train  # noqa: E402
from anneal_worker.serve import LeaseProgress  # noqa: E402
from tests.stand_in import StandInLM  # noqa: E402

INSTANCE = "python-client-test"


def lease(client: Client, base: str, probe_logprobs: list) -> dict:
    request = {"instance": INSTANCE, "version": 1,
               "capabilities": {"kinds": ["sft", "rl"], "modes": ["lora"], "bases": [base], "max_rank": 64}}
    for _ in range(100):
        answer = client.call("POST", "/v1/workers/lease", request)
        if answer.get("probe"):
            client.call("POST", "/v1/workers/probe", {"instance": INSTANCE, "base": answer["probe"]["base"], "logprobs": probe_logprobs})
        elif answer.get("lease"):
            return answer["lease"]
        else:
            time.sleep(0.1)
    raise RuntimeError("no lease")


def train_on_stand_in(client: Client, token: str) -> dict:
    """The job's real inputs through jobs.train, each step's event posted; the checkpoint's metrics."""
    inputs = client.call("GET", f"/v1/workers/leases/{token}/inputs")
    part = inputs[inputs["kind"]]
    rows = part["rows"] if inputs["kind"] == "sft" else [r for step in part["steps"] for r in step["rows"]]
    vocab = 1 + max(i for r in rows for i in r["ids"])
    progress = LeaseProgress(client, token, threading.Event(), state_seconds=1e9)
    return {"kind": inputs["kind"], "metrics": train(StandInLM(vocab=vocab, dropout=inputs["lora"]["dropout"]), inputs, progress)}


def main() -> None:
    given = json.load(sys.stdin)
    client = Client(given["server"], given["key"], timeout=60)
    out = {}

    first = lease(client, given["base"], given["probe_logprobs"])
    token = first["token"]
    out["sft"] = train_on_stand_in(client, token)
    state = os.urandom(20 * 2**20)  # more than one 16 MiB chunk
    LeaseProgress(client, token, threading.Event(), 0).save_state(1, state)
    out["cancel_requested"] = client.call("POST", f"/v1/workers/leases/{token}/heartbeat", {})["cancel_requested"]
    out["released"] = client.call("POST", f"/v1/workers/leases/{token}/fail", {"release": True})["status"]
    try:
        client.call("POST", f"/v1/workers/leases/{token}/events", {"events": [{"type": "gradient_step", "data": {"step": 99, "loss": 1}}]})
        out["stale"] = "accepted"
    except LeaseLost:
        out["stale"] = "lease lost"

    second = lease(client, given["base"], given["probe_logprobs"])
    resume = client.call("GET", f"/v1/workers/leases/{second['token']}/inputs")["resume"]
    saved = client.download(resume["url"])
    out.update(same_job=second["job_id"] == first["job_id"], resume_step=resume["step"], resume_format=resume["format"],
               state_round_trip=hashlib.sha256(saved).digest() == hashlib.sha256(state).digest())
    out["sft_cancelled"] = client.call("POST", f"/v1/workers/leases/{second['token']}/fail", {"cancelled": True})["status"]

    third = lease(client, given["base"], given["probe_logprobs"])
    out["rl"] = train_on_stand_in(client, third["token"])
    out["rl_cancelled"] = client.call("POST", f"/v1/workers/leases/{third['token']}/fail", {"cancelled": True})["status"]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
