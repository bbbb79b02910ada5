import { ApiError, errorMessage } from "@/lib/client/api-fetch";

/** A launch's failure split for the form: 422 field messages go on their fields (by the API's
 *  name, e.g. `config.batch_size`); anything else (a 400 such as "file x.jsonl, line 3: …", or a
 *  field the form does not show) is the form's own message. */
export function launchErrors(error: unknown, shownFields: string[]): { fields: Record<string, string>; form?: string } {
  if (!error) return { fields: {} };
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  if (error instanceof ApiError && Object.keys(error.fields).length) {
    for (const [field, message] of Object.entries(error.fields)) {
      if (shownFields.includes(field)) fields[field] = message;
      else rest.push(`${field}: ${message}`);
    }
    return { fields, form: rest.length ? rest.join("; ") : undefined };
  }
  return { fields, form: errorMessage(error) };
}
