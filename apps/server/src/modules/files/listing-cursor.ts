import type { ListQuery } from '@atelier/contracts';
import { AppError } from '../../lib/app-error';
import type { ItemView, ListingKey, SortColumn } from './files.repository';

type Order = Pick<ListQuery, 'sort' | 'direction'>;

/** A moment as items are stamped (ISO 8601 in UTC to the millisecond); a database may refuse others. */
const isMoment = (value: string) => {
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString() === value;
};

/**
 * A folder page's `next_cursor`: the last item's place in the order (its type, sort value and id)
 * with the order it holds for, so a cursor sent with another order is refused instead of misread.
 * It names no folder and grants nothing: the page is read from the folder the call names, as the
 * caller's actor, like any other page.
 */
export function encodeCursor(order: Order, column: SortColumn, last: ItemView): string {
  const key = column === 'size' ? Number(last.size) : last[column];
  return Buffer.from(JSON.stringify([order.sort, order.direction, last.type, key, last.id])).toString(
    'base64url',
  );
}

/** The place a cursor names, for a page in `order`; 422 naming `cursor` for anything else. */
export function decodeCursor(cursor: string, order: Order): ListingKey {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parts) || parts.length !== 5) throw invalidCursor();
  const [sort, direction, type, key, id] = parts as unknown[];
  const keyFits =
    order.sort === 'filesize'
      ? Number.isSafeInteger(key)
      : typeof key === 'string' && (order.sort === 'name' || isMoment(key));
  if (sort !== order.sort || direction !== order.direction || !keyFits) throw invalidCursor();
  if ((type !== 'folder' && type !== 'file') || typeof id !== 'string') throw invalidCursor();
  // What a cursor carries goes to the database as text, which PostgreSQL cannot take with U+0000.
  if (id.includes('\u0000') || (typeof key === 'string' && key.includes('\u0000'))) throw invalidCursor();
  return { type, key: key as string | number, id };
}

function invalidCursor(): AppError {
  return AppError.invalid('cursor', 'validation.listing_cursor');
}
