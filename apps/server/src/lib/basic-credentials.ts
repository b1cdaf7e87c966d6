/** `Authorization: Basic base64(email:password)`; the password may itself hold colons. */
export function basicCredentials(
  authorization: string | undefined,
): { email: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? { email: decoded.slice(0, colon), password: decoded.slice(colon + 1) } : null;
}
