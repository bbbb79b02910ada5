"""A tiny causal language model in plain torch, called as a Hugging Face one (``module(input_ids=…,
attention_mask=…).logits``), with a frozen base and a trainable low-rank adapter (B = 0 at the
start, dropout on its input): enough to exercise the worker's steps, states and job logic where
transformers and PEFT are not installed. Not Anneal's model, and not a model of any real one."""
from types import SimpleNamespace

import torch


class StandInLM(torch.nn.Module):
    def __init__(self, vocab: int = 11, dim: int = 8, rank: int = 2, dropout: float = 0.0, seed: int = 0):
        super().__init__()
        g = torch.Generator().manual_seed(seed)
        self.embed = torch.nn.Parameter(torch.randn(vocab, dim, generator=g), requires_grad=False)
        self.head = torch.nn.Parameter(torch.randn(vocab, dim, generator=g) / dim**0.5, requires_grad=False)
        self.lora_A = torch.nn.Parameter(torch.randn(rank, dim, generator=g) / dim**0.5)
        self.lora_B = torch.nn.Parameter(torch.zeros(vocab, rank))
        self.dropout = torch.nn.Dropout(dropout)

    def forward(self, input_ids, attention_mask):
        h = self.embed[input_ids] * attention_mask[..., None]
        # Position t sees tokens ≤ t only: the running mean of their embeddings.
        h = h.cumsum(dim=1) / torch.arange(1, h.shape[1] + 1)[None, :, None]
        logits = h @ self.head.T + self.dropout(h) @ self.lora_A.T @ self.lora_B.T
        return SimpleNamespace(logits=logits)
