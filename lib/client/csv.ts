// Text files the console builds in the browser: RFC 4180 CSV, and saving text as a download.

/** One CSV field: text as is, other values as JSON, null and undefined empty; quoted (its quotes
 *  doubled) when it holds a comma, a quote or a line break. */
const csvField = (value: unknown) => {
  const text = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** Lines of fields as RFC 4180 CSV: CRLF after every line, the last included. */
export function csvText(lines: unknown[][]): string {
  return lines.map((line) => line.map(csvField).join(",")).join("\r\n") + "\r\n";
}

/** Saves text as a file through a temporary link (the browser's download). */
export function downloadText(text: string, filename: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  URL.revokeObjectURL(url);
}
