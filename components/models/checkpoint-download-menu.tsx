"use client";

import { ChevronDown, Download } from "lucide-react";
import type { TrainedModel } from "@/components/models/queries";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";

// "Download" on a checkpoint row: the checkpoint as files other tools load
// (GET /v1/preview/models/{id}/checkpoints/{step}/download?format=…). A LoRA checkpoint comes as
// its GGUF adapter, a PEFT zip or the base with it merged; a full-weights checkpoint is one GGUF.

const LORA_FORMATS = [
  { format: "gguf-lora", label: "GGUF adapter", explanation: "For llama.cpp (--lora) over the base GGUF; Anneal's own file." },
  { format: "peft", label: "PEFT zip", explanation: "adapter_config.json + adapter_model.safetensors: Hugging Face PEFT and vLLM load it as is." },
  { format: "merged-gguf", label: "Merged GGUF (F16)", explanation: "The base with the adapter folded in: one file for llama.cpp, Ollama, LM Studio." },
] as const;

const FULL_FORMATS = [{ format: "gguf", label: "GGUF", explanation: "The whole model (full weights): llama.cpp serves it as is. Adapter formats apply to LoRA models only." }] as const;

export function CheckpointDownloadMenu({ model, step }: { model: TrainedModel; step: number }) {
  const formats = model.lora ? LORA_FORMATS : FULL_FORMATS;
  const href = (format: string) => `/v1/preview/models/${encodeURIComponent(model.id)}/checkpoints/${step}/download?format=${format}`;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="secondary" size="sm" aria-label={`Download step ${step}`}>
          <Download /> Download <ChevronDown />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-80">
        <DropdownMenuLabel>Step {step} as</DropdownMenuLabel>
        {formats.map(({ format, label, explanation }) => (
          <DropdownMenuItem key={format} asChild>
            {/* A plain link: the browser downloads it with the session cookie and the server's file name. */}
            <a href={href(format)} download className="flex-col items-start gap-0.5">
              <span className="font-medium text-zinc-900">{label}</span>
              <span className="text-xs text-zinc-500">{explanation}</span>
            </a>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
