import pg from "pg";
import { log } from "@/lib/log";

// Notices that something changed, sent to every process on one database: PostgreSQL's
// LISTEN/NOTIFY. A writer calls pg_notify(channel, '') in the transaction of its change, so the
// notice leaves when the change commits; every process that subscribed hears it within
// milliseconds on a connection of its own. That connection can be lost (a restarted server, a
// network cut): while it is, `live` is false and subscribers must not trust what they remember, and
// each reconnection is a gap (notices sent meanwhile were missed). The embedded database has one
// process, which clears what it remembers itself: its feed is always live and never calls back.

export interface ChangeSubscriber {
  /** A notice arrived on the channel. */
  onChange(): void;
  /** Notices may have been missed (the connection was lost, or has just been made). */
  onGap(): void;
}

export interface ChangeFeed {
  /** Whether a notice sent now will reach this process. */
  readonly live: boolean;
  subscribe(channel: string, subscriber: ChangeSubscriber): void;
  close(): Promise<void>;
}

/** The SQL that sends a notice (run it in the change's transaction). */
export const notifySql = (channel: string) => `SELECT pg_notify('${channel}', '')`;

export const embeddedChangeFeed = (): ChangeFeed => ({ live: true, subscribe: () => undefined, close: async () => undefined });

/** How often the listening connection proves it is alive, and how long it gets to answer. */
const PING_MS = 2_000;
const PING_TIMEOUT_MS = 2_000;
/** Reconnection waits: doubling from the first to the last. */
const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 5_000;
const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/** The listening connection of a PostgreSQL database, made on the first subscription. */
export class PostgresChangeFeed implements ChangeFeed {
  private readonly subscribers = new Map<string, ChangeSubscriber[]>();
  private client?: pg.Client;
  private connecting = false;
  private closed = false;
  private retryMs = FIRST_RETRY_MS;
  private timer?: NodeJS.Timeout;

  constructor(private readonly url: string) {}

  get live(): boolean {
    return this.client !== undefined;
  }

  subscribe(channel: string, subscriber: ChangeSubscriber): void {
    if (!CHANNEL_NAME.test(channel)) throw new Error(`Not a channel name: ${channel}`);
    const known = this.subscribers.get(channel);
    if (known) known.push(subscriber);
    else {
      this.subscribers.set(channel, [subscriber]);
      // A live connection listens from now on; until then the subscriber's memory is not trusted.
      this.client?.query(`LISTEN ${channel}`).catch((error: Error) => this.lost(this.client!, error));
    }
    if (!this.client) void this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private each(fn: (s: ChangeSubscriber) => void, channel?: string): void {
    for (const [name, list] of this.subscribers) if (!channel || name === channel) list.forEach(fn);
  }

  private async connect(): Promise<void> {
    if (this.connecting || this.client || this.closed) return;
    this.connecting = true;
    const client = new pg.Client({ connectionString: this.url, keepAlive: true, application_name: "anneal-change-feed" });
    client.on("notification", (message) => this.each((s) => s.onChange(), message.channel));
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client, new Error("connection ended")));
    try {
      await client.connect();
      for (const channel of this.subscribers.keys()) await client.query(`LISTEN ${channel}`);
      if (this.closed) return void (await client.end());
      this.client = client;
      this.retryMs = FIRST_RETRY_MS;
      this.each((s) => s.onGap()); // what was remembered before now may predate a missed notice
      this.ping(client);
    } catch (error) {
      this.lost(client, error as Error);
    } finally {
      this.connecting = false;
    }
  }

  /** A connection that stops answering is as good as lost (a cut network shows no error for minutes). */
  private ping(client: pg.Client): void {
    this.timer = setTimeout(async () => {
      let timeout: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          client.query("SELECT 1"),
          new Promise((_, reject) => (timeout = setTimeout(() => reject(new Error("no answer to a ping")), PING_TIMEOUT_MS))),
        ]);
        if (this.client === client) this.ping(client);
      } catch (error) {
        this.lost(client, error as Error);
      } finally {
        clearTimeout(timeout);
      }
    }, PING_MS);
    this.timer.unref();
  }

  private lost(client: pg.Client, error: Error): void {
    const wasLive = this.client === client;
    if (wasLive) {
      this.client = undefined;
      clearTimeout(this.timer);
      this.each((s) => s.onGap());
      log.warn("lost the database's change feed; reconnecting", { error: error.message });
    }
    client.removeAllListeners();
    client.on("error", () => undefined);
    void client.end().catch(() => undefined);
    if (this.closed || this.client) return; // closing, or an old connection's late error
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.connect(), this.retryMs);
    this.timer.unref();
    this.retryMs = Math.min(LAST_RETRY_MS, this.retryMs * 2);
  }
}
