// The hand-over between a generation's decode loop and its consumer (see generate.ts).

/** Tokens from the decode loop to the consumer. The consumer is woken on the next event loop turn,
 *  after node-llama-cpp has dispatched the decodes queued in this one, so its work runs while
 *  llama.cpp decodes rather than before. */
export class TokenBuffer<T, R> {
  private readonly items: T[] = [];
  private end: { value: R } | { error: unknown } | undefined;
  private waiter: (() => void) | undefined;
  private wake: NodeJS.Immediate | undefined;

  push(item: T): void {
    this.items.push(item);
    this.signal();
  }

  finish(value: R): void {
    this.end = { value };
    this.signal();
  }

  fail(error: unknown): void {
    this.end = { error };
    this.signal();
  }

  async next(): Promise<IteratorResult<T, R>> {
    while (this.items.length === 0 && !this.end) await new Promise<void>((resolve) => (this.waiter = resolve));
    if (this.items.length > 0) return { done: false, value: this.items.shift()! };
    if ("error" in this.end!) throw this.end.error;
    return { done: true, value: this.end!.value };
  }

  private signal(): void {
    if (!this.waiter) return;
    this.wake ??= setImmediate(() => {
      this.wake = undefined;
      const waiter = this.waiter;
      this.waiter = undefined;
      waiter?.();
    });
  }
}
