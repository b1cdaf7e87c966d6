/** One failed request as the admin's server tab lists it: never a body, a query string or a secret. */
export interface ErrorLogEntry {
  at: string;
  status: number;
  method: string;
  path: string;
  error: string;
}

/** An error's message with the credentials of any URL in it (`postgres://user:pass@host`) masked. */
function withoutCredentials(message: string): string {
  return message
    .split(' ')
    .map((word) => {
      if (!word.includes('://') || !word.includes('@')) return word;
      try {
        const url = new URL(word);
        if (!url.username && !url.password) return word;
        url.username = '***';
        url.password = '';
        return url.toString();
      } catch {
        return '***';
      }
    })
    .join(' ');
}

/**
 * The last failures of this process (5xx answers), newest first, kept in memory: enough for an admin
 * to see what broke lately without a log shipper. Each API process keeps its own.
 */
export class ErrorLog {
  private readonly entries: ErrorLogEntry[] = [];

  constructor(
    /** The app's clock: each failure is stamped with it. */
    private readonly now: () => Date,
    private readonly capacity = 50,
  ) {}

  record(entry: { status: number; method: string; url: string; error: unknown }): void {
    const error =
      entry.error instanceof Error ? `${entry.error.name}: ${entry.error.message}` : String(entry.error);
    this.entries.unshift({
      at: this.now().toISOString(),
      status: entry.status,
      method: entry.method,
      path: entry.url.split('?', 1)[0]!.slice(0, 300),
      error: withoutCredentials(error).slice(0, 500),
    });
    this.entries.length = Math.min(this.entries.length, this.capacity);
  }

  recent(): ErrorLogEntry[] {
    return [...this.entries];
  }
}
