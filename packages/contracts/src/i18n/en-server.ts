/** Strings the server sends (e-mails, error messages), flat dotted keys. */
export const enServer: Record<string, string> = {};
