import { flushCalls } from "@/lib/call-log/call-recorder";
import { getDatabase } from "@/lib/db/client";

// What feedback on a recorded call is checked against: how many choices the call has (a preferred
// choice names two of them) and the first choice's reply (a corrected reply must differ from it).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface RecordedCall {
  /** 0 for a failed call. */
  choices: number;
  /** The first choice's text; null where it has none. */
  reply: string | null;
}

/** The project's recorded call, or null when there is no such call. */
export async function recordedCall(projectId: string, callId: string): Promise<RecordedCall | null> {
  // Weave's own call ids are not UUIDs; Anneal records only UUIDs, so those name no recorded call.
  if (!UUID.test(callId)) return null;
  const read = () =>
    getDatabase().sql.query<RecordedCall>(
      `SELECT CASE WHEN jsonb_typeof(output->'choices') = 'array' THEN jsonb_array_length(output->'choices') ELSE 0 END AS choices,
              CASE WHEN jsonb_typeof(output #> '{choices,0,message,content}') = 'string' THEN output #>> '{choices,0,message,content}' END AS reply
       FROM "Call" WHERE id = $1::uuid AND "projectId" = $2::uuid`,
      [callId, projectId],
    );
  let rows = await read();
  // A call is written shortly after its answer; feedback sent at once may arrive first.
  if (rows.length === 0) {
    await flushCalls();
    rows = await read();
  }
  return rows[0] ?? null;
}
