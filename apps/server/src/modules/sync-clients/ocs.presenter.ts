import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../../lib/escape-html';

/** The two OCS APIs: v1 answers HTTP 200 to nearly everything, v2 mirrors the status in HTTP. */
export type OcsVersion = 'v1' | 'v2';

/** OCS's own status codes for the refusals of the framework (Nextcloud's developer manual). */
const OCS_UNAUTHORISED = 997;

/**
 * The meta block and HTTP status of an answer with `status` (an HTTP status): v1 says 100 for
 * success and answers refusals with HTTP 200, all but a failed sign-in and what a client must back
 * off from (a throttle, a server that is down); v2 says the status twice.
 */
export function ocsStatus(version: OcsVersion, status: number): { http: number; statuscode: number } {
  if (version === 'v2') return { http: status, statuscode: status };
  if (status === 401) return { http: 401, statuscode: OCS_UNAUTHORISED };
  if (status === 429 || status >= 500) return { http: status, statuscode: status };
  return { http: 200, statuscode: status === 200 ? 100 : status };
}

/** Whether the caller asked for JSON: `?format=json`, or an Accept naming JSON; XML otherwise. */
export function wantsJson(request: FastifyRequest): boolean {
  const format = (request.query as { format?: unknown } | undefined)?.format;
  if (format === 'json') return true;
  if (format === 'xml') return false;
  return /\bapplication\/json\b/i.test(request.headers.accept ?? '');
}

/** Sends `data` in the OCS envelope, as JSON or XML as the caller asked. */
export function sendOcs(
  request: FastifyRequest,
  reply: FastifyReply,
  version: OcsVersion,
  data: unknown,
  status = 200,
  message = status < 400 ? 'OK' : '',
) {
  const { http, statuscode } = ocsStatus(version, status);
  const ocs = {
    meta: { status: status < 400 ? 'ok' : 'failure', statuscode, message },
    data,
  };
  reply.status(http).header('cache-control', 'no-store');
  if (wantsJson(request)) return reply.type('application/json; charset=utf-8').send({ ocs });
  return reply.type('text/xml; charset=utf-8').send(`<?xml version="1.0"?>\n${xmlElement('ocs', ocs)}\n`);
}

/**
 * One value as OCS writes XML: an object's keys become elements, an array's members `<element>`,
 * true `1` and false or null an empty element, as Nextcloud's PHP writer does.
 */
function xmlElement(name: string, value: unknown): string {
  if (value === null || value === undefined || value === false) return `<${name}/>`;
  if (Array.isArray(value))
    return `<${name}>${value.map((member) => xmlElement('element', member)).join('')}</${name}>`;
  if (typeof value === 'object')
    return `<${name}>${Object.entries(value)
      .map(([key, member]) => xmlElement(key, member))
      .join('')}</${name}>`;
  return `<${name}>${xmlText(value === true ? '1' : String(value))}</${name}>`;
}

/** Characters XML 1.0 cannot carry at all (C0 controls but tab and newlines) are replaced, the rest escaped. */
function xmlText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return escapeHtml(text).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd');
}
