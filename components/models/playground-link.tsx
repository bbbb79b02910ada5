import { MessageSquare } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";

// A trained model's inference name (docs/contract.md "Inference names") and the playground with it
// chosen: no step = its newest checkpoint (the base model before any), `:stepN` one checkpoint.

export function inferenceName(model: { entity: string; project: string; name: string }, step?: number): string {
  return `${model.entity}/${model.project}/${model.name}${step === undefined ? "" : `:step${step}`}`;
}

export const playgroundHref = (model: string) => `/playground?model=${encodeURIComponent(model)}`;

export function OpenInPlayground({ model, label = "Open in playground", compact = false }: { model: string; label?: string; compact?: boolean }) {
  return (
    <Button asChild variant={compact ? "ghost" : "secondary"} size="sm">
      <Link href={playgroundHref(model)} aria-label={compact ? `${label}: ${model}` : undefined}>
        <MessageSquare /> {label}
      </Link>
    </Button>
  );
}
