// Uploads a file to the lease in chunks (docs/workers.md, Uploads): adapters and states can exceed
// the 64 MiB body limit. Announced with its size and sha256, then sent chunk by chunk with
// Content-Range; a chunk that fails is sent again (the client's retries), and after a refusal the
// upload goes on from the prefix the server says it holds.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { WorkerApiError, type WorkerClient } from "./worker-client";

export type UploadPurpose = "checkpoint" | "state";

/** The upload's id, once every byte is on the server. */
export async function uploadFile(client: WorkerClient, token: string, file: string, purpose: UploadPurpose, deadline: number): Promise<string> {
  const bytes = fs.statSync(file).size;
  const sha256 = await fileSha256(file);
  const leaseRoute = `/v1/workers/leases/${token}/uploads`;
  const { upload_id, chunk_bytes } = await client.json<{ upload_id: string; chunk_bytes: number }>("POST", leaseRoute, { body: { purpose, bytes, sha256 }, deadline });
  const route = `${leaseRoute}/${upload_id}`;
  const fd = fs.openSync(file, "r");
  try {
    for (let offset = 0, refusals = 0; offset < bytes; ) {
      const chunk = Buffer.alloc(Math.min(chunk_bytes, bytes - offset));
      fs.readSync(fd, chunk, 0, chunk.length, offset);
      try {
        await client.send("PUT", route, { body: chunk, headers: { "content-type": "application/octet-stream", "content-range": `bytes ${offset}-${offset + chunk.length - 1}/${bytes}` }, deadline });
        offset += chunk.length;
      } catch (error) {
        if (!(error instanceof WorkerApiError) || ++refusals > 3) throw error;
        offset = (await client.json<{ received: number }>("GET", route, { deadline })).received;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return upload_id;
}

async function fileSha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
