import { invalid } from "@/lib/contract/errors";

// JSON bodies. Python clients (ART) emit the non-standard literals NaN, Infinity and -Infinity;
// routes that accept them read them as null ("missing"), which then takes the field's default.

const NON_STANDARD_LITERAL = /-?Infinity|NaN/y;

/** Rewrites NaN/Infinity/-Infinity outside strings to null; leaves everything else untouched. */
export function replaceNonStandardLiterals(text: string): string {
  let out = "";
  let last = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      continue;
    }
    if (c === "N" || c === "I" || c === "-") {
      NON_STANDARD_LITERAL.lastIndex = i;
      const match = NON_STANDARD_LITERAL.exec(text);
      if (match) {
        out += `${text.slice(last, i)}null`;
        i += match[0].length - 1;
        last = i + 1;
      }
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

export function parseJsonBody(text: string, allowNonStandardLiterals: boolean): unknown {
  try {
    return JSON.parse(allowNonStandardLiterals ? replaceNonStandardLiterals(text) : text);
  } catch (error) {
    throw invalid(["body"], `JSON decode error: ${(error as Error).message}`, "json_invalid");
  }
}
