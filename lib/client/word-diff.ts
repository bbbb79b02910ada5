// A word-level diff of a corrected reply against the model's: the longest common subsequence of
// tokens (words and the whitespace between them), as runs of kept, removed and added text. Replies
// are short (a corrected reply is at most 32 KiB), so the quadratic table is fine; beyond
// MAX_TOKENS on either side it gives up and shows the whole of each as removed and added.

export interface DiffPart {
  kind: "same" | "removed" | "added";
  text: string;
}

const MAX_TOKENS = 2000;
const tokens = (text: string) => text.match(/\s+|[^\s]+/g) ?? [];

export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  if (a.length > MAX_TOKENS || b.length > MAX_TOKENS) return [...(before ? [{ kind: "removed" as const, text: before }] : []), ...(after ? [{ kind: "added" as const, text: after }] : [])];
  // lcs[i][j]: the common subsequence's length of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart["kind"], text: string) => {
    const last = parts.at(-1);
    if (last?.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push("same", a[i]);
      i++;
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) push("removed", a[i++]);
    else push("added", b[j++]);
  }
  while (i < a.length) push("removed", a[i++]);
  while (j < b.length) push("added", b[j++]);
  return parts;
}
