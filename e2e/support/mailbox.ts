import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { serverDataDir } from './data-dir';

/** The server's outgoing mail: without SMTP it writes each message as an .eml file under DATA_DIR/mail. */
function mails(): string[] {
  const folder = path.join(serverDataDir(), 'mail');
  if (!existsSync(folder)) return [];
  return (
    readdirSync(folder)
      .filter((file) => file.endsWith('.eml'))
      .map((file) => readFileSync(path.join(folder, file), 'utf8'))
      // Quoted-printable: soft line breaks and an escaped "=".
      .map((eml) => eml.replace(/=\r?\n/g, '').replace(/=3D/g, '='))
  );
}

/**
 * The path and query of the first link to `pathPrefix` in a mail to `to`, once one arrived (mail
 * leaves through background jobs).
 */
export async function mailedLink(to: string, pathPrefix: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      () => {
        for (const eml of mails()) {
          if (!new RegExp(`^To: ${to.replace(/[.+]/g, '\\$&')}\\s*$`, 'm').test(eml)) continue;
          // The plain-text part comes first; an address there ends at white space (in the HTML part
          // at a quote or a tag).
          const link = /https?:\/\/[^\s"<>]+/g;
          for (const [url] of eml.matchAll(link)) {
            const { pathname, search } = new URL(url);
            if (pathname.startsWith(pathPrefix)) return (found = pathname + search);
          }
        }
        return found;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  return found!;
}
