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

  /** A 422 naming the offending field. */
  static invalid(field: string, message: string, code: ErrorCode = 'validation_failed'): AppError {
    return new AppError(code, message, { [field]: [message] });
  }
}
