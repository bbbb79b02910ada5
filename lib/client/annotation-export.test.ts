import { describe, expect, it } from "vitest";
import { exportRecords, toCsv, toJsonl, type FeedbackExportRow } from "./annotation-export";

const QUEUE = "0190aaaa-0000-7000-8000-000000000001";
const CALL = "0190bbbb-0000-7000-8000-000000000002";
const row = (id: string, feedback_type: string, payload: Record<string, unknown>): FeedbackExportRow => ({
  id,
  feedback_type,
  payload,
  wb_user_id: "u1",
  created_at: "2026-01-01T00:00:00.000Z",
  svc_ref: `svc:///team/proj/call/${CALL}`,
  annotation_ref: feedback_type === "wandb.note.1" ? null : "svc:///team/proj/object/score:abc",
});

describe("exportRecords", () => {
  const rows = [
    row("f1", "wandb.annotation.score", { value: 4 }),
    row("f2", "wandb.annotation.fixed_reply", { value: 'He said "hi",\nthen left' }),
    row("f3", "wandb.note.1", { note: "too long" }),
    row("f4", "wandb.reaction.1", { emoji: "👍" }),
  ];
  const records = exportRecords(QUEUE, rows, new Map([["u1", "ann"]]));

  it("keeps annotations and notes, names the field, the call and the annotator", () => {
    expect(records.map((r) => [r.field, r.value, r.call_id, r.annotator])).toEqual([
      ["score", 4, CALL, "ann"],
      ["fixed_reply", 'He said "hi",\nthen left', CALL, "ann"],
      ["note", "too long", CALL, "ann"],
    ]);
  });

  it("writes JSONL with values as JSON, one record a line", () => {
    const lines = toJsonl(records).trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0])).toMatchObject({ queue_id: QUEUE, field: "score", value: 4, feedback_id: "f1" });
  });

  it("writes RFC 4180 CSV: quotes doubled, fields with commas or line breaks quoted, CRLF lines", () => {
    const csv = toCsv(records);
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("queue_id,call_id,annotator,annotator_user_id,field,value,created_at,feedback_id,annotation_ref");
    expect(lines[1]).toBe(`${QUEUE},${CALL},ann,u1,score,4,2026-01-01T00:00:00.000Z,f1,svc:///team/proj/object/score:abc`);
    expect(csv).toContain(`fixed_reply,"He said ""hi"",\nthen left",`);
    expect(csv.endsWith("\r\n")).toBe(true);
  });
});

describe("a preferred choice in the export", () => {
  const records = exportRecords(QUEUE, [row("p1", "wandb.annotation.better", { value: { preferred: 1, over: 0 } })], new Map([["u1", "ann"]]));

  it("stays an object in JSONL and is JSON (quoted) in CSV", () => {
    expect(JSON.parse(toJsonl(records))).toMatchObject({ field: "better", value: { preferred: 1, over: 0 } });
    expect(toCsv(records).split("\r\n")[1]).toBe(`${QUEUE},${CALL},ann,u1,better,"{""preferred"":1,""over"":0}",2026-01-01T00:00:00.000Z,p1,svc:///team/proj/object/score:abc`);
  });
});
