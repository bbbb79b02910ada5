// What a recorded call's prompt was rendered with besides its messages and tools: the request's
// chat_template_kwargs, its own chat_template and its documents. Data built from the call carries
// them as chat_template_kwargs, so training renders the prompt the call was served.
import { isJsonObject } from "@/lib/call-log/json-object";
import { servedTemplateKwargs } from "@/lib/engine/tokenizer/served-template-kwargs";

/** The columns recordedTemplateKwargs reads, for a SELECT on "Call". */
export const TEMPLATE_INPUT_COLUMNS = `inputs->'chat_template_kwargs' AS chat_template_kwargs, inputs->'chat_template' AS chat_template, inputs->'documents' AS documents`;

export interface TemplateInputs {
  chat_template_kwargs: unknown;
  chat_template: unknown;
  documents: unknown;
}

/** The call's chat_template_kwargs for training; null when the call rendered with none. */
export function recordedTemplateKwargs(row: TemplateInputs): Record<string, unknown> | null {
  const kwargs = servedTemplateKwargs({
    chat_template_kwargs: isJsonObject(row.chat_template_kwargs) ? row.chat_template_kwargs : {},
    chat_template: typeof row.chat_template === "string" ? row.chat_template : undefined,
    documents: Array.isArray(row.documents) ? row.documents : undefined,
  });
  return Object.keys(kwargs).length ? kwargs : null;
}
