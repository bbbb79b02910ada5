"use client";

import { Download } from "lucide-react";
import { Button } from "@/components/ui/button";
import { exportUrl, type QueueDto } from "./queries";

// Export a queue's annotations as the server writes them (GET .../export): per person and item, the
// prompt, the answer, the correction, the values, the note and the review. CSV for spreadsheets,
// JSONL for code.

const FORMATS = { csv: "CSV", jsonl: "JSONL" } as const;

export function ExportButtons({ queue }: { queue: QueueDto }) {
  return (
    <div className="flex items-center gap-2">
      {(Object.keys(FORMATS) as (keyof typeof FORMATS)[]).map((format) => (
        <Button key={format} asChild variant="secondary" size="sm">
          <a href={exportUrl(queue.id, format)} download>
            <Download aria-hidden /> Export {FORMATS[format]}
          </a>
        </Button>
      ))}
    </div>
  );
}
