// An SFT job's examples: inline `training_data`, or `training_data_url` naming an uploaded file
// (its id or anneal-file:///<id>); and optionally its validation examples, the same two ways
// (`validation_data`, `validation_data_url`). http(s) URLs would make the server fetch on a
// caller's behalf (SSRF), so they are refused, as are other schemes such as ART's wandb-artifact:///.
import type { Principal } from "@/lib/auth/principal";
import { findFileForCaller, parseFileRef, readFileForCaller } from "@/lib/files/files";
import { badRequest } from "@/lib/contract/errors";
import { parseSftJsonl } from "@/lib/training/sft/sft-jsonl";
import type { SftExample } from "@/lib/training/sft/tokenize-sft-example";
import type { JobInput, SftData } from "./load-job-task";
import type { CreateSftJobBody } from "./schemas";

const UPLOAD_HINT = "Upload the JSONL with POST /v1/files (multipart: file, purpose=fine-tune) and pass its id (or anneal-file:///<id>) as training_data_url, or send the examples inline as training_data.";

async function loadExamples(principal: Principal, inline: SftExample[] | undefined, url: string | undefined): Promise<{ data: SftData; examples: SftExample[] }> {
  if (inline) return { data: { training_data: inline }, examples: inline };
  const fileId = parseFileRef(url!);
  if (!fileId) {
    const kind = /^https?:\/\//i.test(url!) ? "Fetching training data from http(s) URLs is disabled on this instance" : `'${url}' is not a file of this instance`;
    throw badRequest(`${kind}. ${UPLOAD_HINT}`);
  }
  // Errors name the file as its uploader knows it: "file train.jsonl (<id>), line 3: …".
  const { filename } = await findFileForCaller(principal, fileId);
  const text = (await readFileForCaller(principal, fileId)).toString("utf8");
  return { data: { file_id: fileId }, examples: parseSftJsonl(text, `file ${filename} (${fileId})`) };
}

/** The job's stored input, its training examples, and how many validation examples of their own it has. */
export async function loadSftExamples(principal: Principal, body: CreateSftJobBody): Promise<{ input: JobInput; examples: SftExample[]; validationExamples: number }> {
  const { data, examples } = await loadExamples(principal, body.training_data, body.training_data_url);
  if (!body.validation_data && !body.validation_data_url) return { input: data, examples, validationExamples: 0 };
  const validation = await loadExamples(principal, body.validation_data, body.validation_data_url);
  return { input: { ...data, validation: validation.data }, examples, validationExamples: validation.examples.length };
}
