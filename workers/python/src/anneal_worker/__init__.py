"""anneal-worker: trains Anneal's jobs on a GPU with transformers + PEFT (docs/workers.md)."""

__version__ = "0.1.0"
PROTOCOL_VERSION = 1
