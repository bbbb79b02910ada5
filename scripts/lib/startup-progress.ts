// What npm start prints while it starts: one line per phase with the seconds since the start, so
// a first start (which builds for minutes) visibly moves and a slow phase shows where time goes.

export class StartupProgress {
  /** performance.now() counts from this process's start: loading the start script's modules counts too. */
  private readonly startedAt = 0;

  constructor(private readonly write: (line: string) => void = (line) => console.log(line)) {}

  /** Seconds since the start, one decimal. */
  elapsed(since = this.startedAt): string {
    return ((performance.now() - since) / 1000).toFixed(1);
  }

  /** A phase begins (or a note on the one under way). */
  step(text: string): void {
    this.write(`anneal [${this.elapsed()} s] ${text}`);
  }
}
