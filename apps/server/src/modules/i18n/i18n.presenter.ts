import { prepareBody, type PreparedBody } from '../../lib/prepared-body';

/** Per message set the service holds: a new set (after an edit or its expiry) is prepared again. */
const prepared = new WeakMap<Record<string, string>, PreparedBody>();

/**
 * A language's strings as every page load asks for them: serialised and compressed once per set
 * (130 KB of JSON sent as 34 KB of brotli), with the ETag a browser's next visit revalidates.
 */
export function preparedMessages(messages: Record<string, string>): PreparedBody {
  let body = prepared.get(messages);
  if (!body) {
    body = prepareBody(JSON.stringify(messages), 5);
    prepared.set(messages, body);
  }
  return body;
}
