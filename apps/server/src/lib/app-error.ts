import type { ErrorCode } from '@atelier/contracts';

/**
 * A failure the client may see. Services throw it with a code; the error plugin maps the code to
 * its HTTP status (packages/contracts errors.ts), so no service knows about HTTP.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message?: string,
    /** Field -> messages, for 422 answers. */
    readonly errors?: Record<string, string[]>,
    /** Values for `{{name}}` placeholders of the message and the field messages. */
    readonly vars?: Record<string, string | number>,
    /** Figures the client acts on, sent as the body's `meta`. */
    readonly meta?: Record<string, number>,
  ) {
    super(message ?? code);
    this.name = 'AppError';
  }

  /** Whom a visitor may ask for a new link, and since when this one answers so; sent beside the message. */
  ended?: { owner: { name: string }; ended_at: string };

  /** The blocks a delta upload's commit names that the server does not hold; sent beside the message. */
  missing?: string[];

  /** A delta upload's commit naming blocks the server does not hold (409): the client sends them and commits again. */
  static blocksMissing(missing: string[]): AppError {
    const error = new AppError('blocks_missing', 'errors.blocks_missing');
    error.missing = missing;
    return error;
  }

  /** A link that stopped working (410): said with its owner's name and the time it ended. */
  static linkEnded(
    code: 'share_revoked' | 'share_expired',
    message: string,
    ownerName: string,
    endedAt: string,
  ): AppError {
    const error = new AppError(code, message, undefined, { owner: ownerName });
    error.ended = { owner: { name: ownerName }, ended_at: endedAt };
    return error;
  }

  /** A 422 naming the offending field. */
  static invalid(field: string, message: string, code: ErrorCode = 'validation_failed'): AppError {
    return new AppError(code, message, { [field]: [message] });
  }
}
