// Numbered parameters for SQL assembled from optional parts: each value added returns its
// placeholder (`$3`), so fragments can be built in any order and values never enter the text.

export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
