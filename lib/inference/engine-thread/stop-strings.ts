// Stop strings over streamed text: text that could still be the start of a stop string is held
// back until it is not; a match ends the choice, cut before the stop string unless it is included.

export interface StopCheck {
  /** Text safe to emit now. */
  emit: string;
  stopped: boolean;
}

export class StopStringMatcher {
  private held = "";

  constructor(
    private readonly stops: readonly string[],
    private readonly includeStop: boolean,
  ) {}

  push(text: string): StopCheck {
    if (this.stops.length === 0) return { emit: text, stopped: false };
    const buffer = this.held + text;
    let first: { at: number; stop: string } | undefined;
    for (const stop of this.stops) {
      const at = buffer.indexOf(stop);
      if (at >= 0 && (!first || at < first.at)) first = { at, stop };
    }
    if (first) {
      this.held = "";
      return { emit: buffer.slice(0, first.at + (this.includeStop ? first.stop.length : 0)), stopped: true };
    }
    const keep = this.partialMatchLength(buffer);
    this.held = buffer.slice(buffer.length - keep);
    return { emit: buffer.slice(0, buffer.length - keep), stopped: false };
  }

  /** What is still held back when generation ends another way. */
  flush(): string {
    const rest = this.held;
    this.held = "";
    return rest;
  }

  /** Length of the longest suffix of `buffer` that is a proper prefix of some stop string. */
  private partialMatchLength(buffer: string): number {
    let longest = 0;
    for (const stop of this.stops) {
      for (let n = Math.min(stop.length - 1, buffer.length); n > longest; n--) {
        if (buffer.endsWith(stop.slice(0, n))) {
          longest = n;
          break;
        }
      }
    }
    return longest;
  }
}
