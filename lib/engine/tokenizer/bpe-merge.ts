// Applies BPE merges to one pre-tokenized piece, in llama.cpp's order: repeatedly merge the adjacent
// pair with the lowest merge rank, the leftmost one on ties (llm_tokenizer_bpe_session). A binary
// heap keeps long pieces (a base64 blob is one "word") O(n log n).

/** Pair (left, right) of token ids → the merge's rank and the id of the merged token. */
export interface MergeTable {
  get(left: number, right: number): { rank: number; merged: number } | undefined;
}

export function applyMerges(ids: number[], merges: MergeTable): number[] {
  const n = ids.length;
  if (n < 2) return ids.slice();
  const sym = ids.slice();
  const next = Int32Array.from({ length: n }, (_, i) => (i + 1 < n ? i + 1 : -1));
  const prev = Int32Array.from({ length: n }, (_, i) => i - 1);
  const alive = new Uint8Array(n).fill(1);

  // Heap entries encode (rank, left position) as one number: rank * 2^31 + left sorts like the tuple.
  const heap = new MinHeap();
  const pushPair = (left: number) => {
    const right = left >= 0 ? next[left] : -1;
    if (right < 0) return;
    const m = merges.get(sym[left], sym[right]);
    if (m) heap.push(m.rank * 2 ** 31 + left);
  };
  for (let i = 0; i < n - 1; i++) pushPair(i);

  while (heap.size > 0) {
    const key = heap.pop();
    const left = key % 2 ** 31;
    const rank = (key - left) / 2 ** 31;
    const right = next[left];
    if (!alive[left] || right < 0) continue;
    const m = merges.get(sym[left], sym[right]);
    if (!m || m.rank !== rank) continue; // stale: one side was merged since this entry was pushed
    sym[left] = m.merged;
    alive[right] = 0;
    next[left] = next[right];
    if (next[right] >= 0) prev[next[right]] = left;
    pushPair(prev[left]);
    pushPair(left);
  }
  const out: number[] = [];
  for (let i = 0; i >= 0; i = next[i]) out.push(sym[i]);
  return out;
}

class MinHeap {
  private items: number[] = [];
  get size(): number { return this.items.length; }

  push(x: number): void {
    const a = this.items;
    a.push(x);
    for (let i = a.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (a[parent] <= a[i]) break;
      [a[parent], a[i]] = [a[i], a[parent]];
      i = parent;
    }
  }

  pop(): number {
    const a = this.items;
    const top = a[0];
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && a[l] < a[m]) m = l;
        if (r < a.length && a[r] < a[m]) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
}
