// repetition_detection: generation ends when the output's tail is one pattern of
// min_pattern_size..max_pattern_size tokens repeated min_count times in a row.

export interface RepetitionDetection {
  max_pattern_size: number;
  min_pattern_size: number;
  min_count: number;
}

export function endsInRepetition(tokens: readonly number[], rd: RepetitionDetection): boolean {
  if (rd.max_pattern_size <= 0) return false;
  for (let size = Math.max(1, rd.min_pattern_size); size <= rd.max_pattern_size; size++) {
    const span = size * rd.min_count;
    if (span > tokens.length) break;
    let repeated = true;
    for (let i = tokens.length - span; i < tokens.length - size && repeated; i++) repeated = tokens[i] === tokens[i + size];
    if (repeated) return true;
  }
  return false;
}
