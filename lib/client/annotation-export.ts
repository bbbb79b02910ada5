import { csvText } from "@/lib/client/csv";
import { ANNOTATION_PREFIX, NOTE_TYPE } from "@/lib/feedback/kinds";

// A queue's annotations as files: one record per feedback row given in the queue (an annotation's
// value, or a note — a skip's reason or a submission's note), with the call it is about and who
// gave it by name. JSONL keeps values as JSON; CSV (RFC 4180) writes non-text values as JSON.

/** The /feedback/query fields the export reads. */
export interface FeedbackExportRow {
  id: string;
  feedback_type: string;
  payload: Record<string, unknown>;
  wb_user_id: string;
  created_at: string;
  /** What the row is about: the call, `svc:///<team>/<project>/call/<id>`. */
  svc_ref: string;
  annotation_ref?: string | null;
}

export interface ExportRecord {
  queue_id: string;
  call_id: string;
  annotator: string;
  annotator_user_id: string;
  /** The spec's name, or `note`. */
  field: string;
  value: unknown;
  created_at: string;
  feedback_id: string;
  annotation_ref: string | null;
}

const COLUMNS: (keyof ExportRecord)[] = ["queue_id", "call_id", "annotator", "annotator_user_id", "field", "value", "created_at", "feedback_id", "annotation_ref"];

/** The call id at the end of `svc:///<team>/<project>/call/<id>`. */
const callIdOf = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);

/** Annotations and notes, in the order given; other kinds of feedback are not the queue's. */
export function exportRecords(queueId: string, rows: FeedbackExportRow[], usernames: Map<string, string>): ExportRecord[] {
  return rows.flatMap((row) => {
    const isNote = row.feedback_type === NOTE_TYPE;
    if (!isNote && !row.feedback_type.startsWith(ANNOTATION_PREFIX)) return [];
    return [
      {
        queue_id: queueId,
        call_id: callIdOf(row.svc_ref),
        annotator: usernames.get(row.wb_user_id) ?? "",
        annotator_user_id: row.wb_user_id,
        field: isNote ? "note" : row.feedback_type.slice(ANNOTATION_PREFIX.length),
        value: isNote ? row.payload.note : row.payload.value,
        created_at: row.created_at,
        feedback_id: row.id,
        annotation_ref: row.annotation_ref ?? null,
      },
    ];
  });
}

export function toJsonl(records: ExportRecord[]): string {
  return records.map((record) => JSON.stringify(record) + "\n").join("");
}

export function toCsv(records: ExportRecord[]): string {
  return csvText([COLUMNS, ...records.map((record) => COLUMNS.map((column) => record[column]))]);
}
