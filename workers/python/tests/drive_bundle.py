"""A job bundle through the worker's bundle code (anneal_worker.bundle: read_bundle, train_bundle,
write_result) with a small torch stand-in model (tests/stand_in.py) in place of the base, and the
bundle's own start adapter handed back as the result's adapter.zip (a stand-in writes no PEFT
adapter): tests/python-worker-client.int.test.ts imports the result.tar it writes into Anneal.
Reads {"job_tar", "result_tar"} on stdin."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))
sys.path.insert(0, os.path.dirname(HERE))

from anneal_worker.bundle import read_bundle, train_bundle, write_result  # noqa: E402
from tests.stand_in import StandInLM  # noqa: E402


def main() -> None:
    given = json.load(sys.stdin)
    job, start_zip = read_bundle(given["job_tar"])
    inputs = job["inputs"]
    vocab = 1 + max(i for r in inputs["sft"]["rows"] for i in r["ids"])
    result = train_bundle(job, StandInLM(vocab=vocab, dropout=inputs["lora"]["dropout"]), max_tokens=4096)
    write_result(given["result_tar"], result, start_zip)
    print(json.dumps({"steps": len(result["events"]), "start_adapter": inputs["start"]["adapter"]}))


if __name__ == "__main__":
    main()
