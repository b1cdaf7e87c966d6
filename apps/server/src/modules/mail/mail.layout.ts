import type { AccentTones } from '@atelier/contracts';
import { escapeHtml } from '../../lib/escape-html';

/** The instance as an e-mail shows it: name, address, logo (an absolute URL) and light-theme accent. */
export interface MailBrand {
  name: string;
  appUrl: string;
  /** The horizontal logo carries the name itself; a square one sits beside it. */
  logo: { url: string; horizontal: boolean } | null;
  accent: Pick<AccentTones, 'accent' | 'onAccent'>;
}

export interface MailContent {
  /** The translated plain-text body; paragraphs are separated by a blank line. */
  text: string;
  /** The mail's one link: its paragraph becomes a button labelled `action`. */
  link?: { url: string; action: string; hint: string };
  footer: string;
}

const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const INK = '#1b1d24';
const MUTED = '#5f6470';

/** A paragraph of the text: escaped, its addresses made links, its line breaks kept. */
function paragraph(text: string, accent: string): string {
  const html = escapeHtml(text)
    .replace(
      /https?:\/\/[^\s<]+/g,
      (url) => `<a href="${url}" style="color:${accent};word-break:break-all">${url}</a>`,
    )
    .replace(/\n/g, '<br>');
  return `<p style="margin:0 0 16px">${html}</p>`;
}

function button(link: NonNullable<MailContent['link']>, brand: MailBrand): string {
  const href = escapeHtml(link.url);
  return `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 24px"><tr><td style="border-radius:10px;background:${brand.accent.accent}"><a href="${href}" style="display:inline-block;padding:12px 22px;${FONT};font-size:15px;font-weight:600;color:${brand.accent.onAccent};text-decoration:none;border-radius:10px">${escapeHtml(link.action)}</a></td></tr></table><p style="margin:0 0 16px;font-size:13px;color:${MUTED}">${escapeHtml(link.hint)}<br><a href="${href}" style="color:${brand.accent.accent};word-break:break-all">${href}</a></p>`;
}

function header(brand: MailBrand): string {
  const name = escapeHtml(brand.name);
  const home = escapeHtml(brand.appUrl);
  if (brand.logo?.horizontal)
    return `<a href="${home}"><img src="${escapeHtml(brand.logo.url)}" alt="${name}" height="40" style="display:block;height:40px;width:auto;max-width:240px;border:0"></a>`;
  const mark = brand.logo
    ? `<td style="padding-right:12px"><img src="${escapeHtml(brand.logo.url)}" alt="" width="40" height="40" style="display:block;width:40px;height:40px;border:0;border-radius:10px"></td>`
    : '';
  return `<table role="presentation" cellpadding="0" cellspacing="0"><tr>${mark}<td style="${FONT};font-size:20px;font-weight:700;color:${INK}"><a href="${home}" style="color:${INK};text-decoration:none">${name}</a></td></tr></table>`;
}

/**
 * The HTML part of every e-mail: the instance's logo and name on top, the accent as a rule and on
 * the button, the text as it reads in the plain part. Tables and inline styles, as mail clients need;
 * the logo is an address on the instance (clients block data URLs).
 */
export function brandedHtml(brand: MailBrand, content: MailContent): string {
  const body = content.text
    .trim()
    .split(/\n{2,}/)
    .map((block) =>
      content.link && block.trim() === content.link.url
        ? button(content.link, brand)
        : paragraph(block, brand.accent.accent),
    )
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><meta name="color-scheme" content="light"></head><body style="margin:0;padding:0;background:#f5f2ed"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f5f2ed"><tr><td align="center" style="padding:32px 12px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:16px;border-top:4px solid ${brand.accent.accent}"><tr><td style="padding:28px 32px 12px">${header(brand)}</td></tr><tr><td style="padding:12px 32px 20px;${FONT};font-size:15px;line-height:1.6;color:${INK}">${body}</td></tr></table><p style="margin:16px 0 0;${FONT};font-size:12px;color:${MUTED}">${escapeHtml(content.footer)}</p></td></tr></table></body></html>`;
}
