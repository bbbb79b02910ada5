"use client";

import { Download } from "lucide-react";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/client/api-fetch";
import { exportRecords, toCsv, toJsonl } from "@/lib/client/annotation-export";
import { downloadText } from "@/lib/client/csv";
import { useQueueFeedback, useQueueStats, type QueueDto } from "./queries";

// Export a queue's annotations, built in the browser from the queue's feedback rows
// (/feedback/query by queue_id): CSV for spreadsheets, JSONL for code.

const FORMATS = {
  csv: { label: "CSV", write: toCsv, type: "text/csv;charset=utf-8" },
  jsonl: { label: "JSONL", write: toJsonl, type: "application/x-ndjson" },
} as const;

export function ExportButtons({ queue }: { queue: QueueDto }) {
  const feedback = useQueueFeedback();
  const stats = useQueueStats(queue.id);
  // Everyone who may have annotated: the assigned, and anyone with progress (stats).
  const usernames = new Map([...queue.annotators, ...(stats.data?.annotators ?? [])].map((a) => [a.user_id, a.username]));

  function exportAs(format: keyof typeof FORMATS) {
    const { write, type } = FORMATS[format];
    feedback.mutate(queue, {
      onSuccess: (rows) => downloadText(write(exportRecords(queue.id, rows, usernames)), `annotations-${queue.name.replace(/[^\w.-]+/g, "-")}.${format}`, type),
    });
  }

  return (
    <div className="flex items-center gap-2">
      {feedback.isError && (
        <span role="alert" className="text-xs text-red-600">
          Export failed: {errorMessage(feedback.error)}
        </span>
      )}
      {(Object.keys(FORMATS) as (keyof typeof FORMATS)[]).map((format) => (
        <Button key={format} variant="secondary" size="sm" disabled={feedback.isPending} onClick={() => exportAs(format)}>
          <Download aria-hidden /> Export {FORMATS[format].label}
        </Button>
      ))}
    </div>
  );
}
