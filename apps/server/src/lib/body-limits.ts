/**
 * Ceilings on JSON request bodies, sized to what each kind of route takes. Fastify refuses a larger
 * body with 413 while reading it, before any parsing or validation runs. Multipart uploads are
 * bounded by their own part limits instead.
 */
export const BODY_LIMIT = {
  /** Every JSON route unless it says otherwise: settings, scenes, notes, contact messages. */
  json: 64 * 1024,
  /** Sign-in, registration, password and wizard forms: a handful of short fields. */
  form: 8 * 1024,
  /** Batches of up to 1,000 item references (move, remove, restore, favourites). */
  itemBatch: 256 * 1024,
  /** Remote upload: up to 50 addresses of up to 2,048 characters. */
  urlBatch: 128 * 1024,
  /** A delta upload's list of up to 20,000 block hashes (64 hex digits each) and a file name. */
  blockList: 1536 * 1024,
} as const;
