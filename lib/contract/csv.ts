// CSV as Anneal writes it, in the browser (chart data) and on the server (queue exports): RFC 4180.

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
