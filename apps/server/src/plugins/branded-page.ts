import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import {
  ACCENT_COLOR_PATTERN,
  ACCENT_STYLE_ID,
  accentPalette,
  accentStyleSheet,
} from '@atelier/contracts/constants';
import { escapeHtml } from '../lib/escape-html';
import { appImageUrl } from '../modules/settings/settings-images.service';
import type { Settings } from '../modules/settings/settings.defaults';

/** What of the instance's brand a page shows before any script runs: tab, icons, colours, previews. */
export interface PageBrand {
  name: string;
  description: string;
  /** The instance's language, until the app knows the reader's. */
  locale: string;
  favicon: string | null;
  touchIcon: string | null;
  /** `#rrggbb`, or null for the built-in colours. */
  accent: string | null;
  /** An absolute address: link previews are made elsewhere. */
  ogImage: string | null;
}

export function pageBrand(s: Settings, appUrl: string): PageBrand {
  const ogImage = appImageUrl(s.app_og_image);
  return {
    name: s.app_title,
    description: s.app_description,
    locale: s.locale,
    favicon: appImageUrl(s.app_favicon),
    touchIcon: appImageUrl(s.app_favicon, 'touch'),
    accent: s.app_accent_color,
    ogImage: ogImage && new URL(ogImage, appUrl).href,
  };
}

/** Tags of the built page that the brand replaces (with the whitespace before them). */
const BUILT_TAGS = {
  title: /\s*<title\b[^>]*>[\s\S]*?<\/title>/gi,
  description: /\s*<meta\s+name=["']?description["']?[^>]*>/gi,
  icons: /\s*<link\s+rel=["']?(?:icon|shortcut icon|apple-touch-icon)["']?[^>]*>/gi,
  themeColor: /\s*<meta\s+name=["']?theme-color["']?[^>]*>/gi,
};

const meta = (attribute: 'name' | 'property', key: string, value: string) =>
  `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`;

/** The site's own link preview, for every page but a share link's, which names its item instead. */
export function siteOpenGraphTags(brand: PageBrand): string {
  return [
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', brand.name),
    meta('property', 'og:title', brand.name),
    meta('property', 'og:description', brand.description),
    ...(brand.ogImage ? [meta('property', 'og:image', brand.ogImage)] : []),
    meta('name', 'twitter:card', brand.ogImage ? 'summary_large_image' : 'summary'),
  ].join('');
}

/**
 * The built index.html in the instance's brand: its language, name and description, its favicon and
 * home-screen icon, and its accent as the pages' primary colour and the browser's theme colour, so the
 * first paint is the studio's before the app's scripts load. `extraHead` is trusted markup.
 */
export function brandPage(built: string, brand: PageBrand, extraHead = ''): string {
  let page = built
    .replace(BUILT_TAGS.title, '')
    .replace(BUILT_TAGS.description, '')
    .replace(BUILT_TAGS.icons, '');
  const head = [
    `<title>${escapeHtml(brand.name)}</title>`,
    meta('name', 'description', brand.description),
    brand.favicon
      ? `<link rel="icon" type="image/png" href="${escapeHtml(brand.favicon)}">`
      : '<link rel="icon" type="image/svg+xml" href="/favicon.svg">',
    ...(brand.touchIcon ? [`<link rel="apple-touch-icon" href="${escapeHtml(brand.touchIcon)}">`] : []),
  ];
  // Stored only as `#rrggbb`; anything else leaves the built-in colours rather than failing the page.
  if (brand.accent && ACCENT_COLOR_PATTERN.test(brand.accent)) {
    // Built-in theme colours stay without an accent; with one, each theme takes its readable tone.
    page = page.replace(BUILT_TAGS.themeColor, '');
    const palette = accentPalette(brand.accent);
    head.push(
      `<meta name="theme-color" content="${palette.light.accent}" media="(prefers-color-scheme: light)">`,
      `<meta name="theme-color" content="${palette.dark.accent}" media="(prefers-color-scheme: dark)">`,
      `<style id="${ACCENT_STYLE_ID}">${accentStyleSheet(palette)}</style>`,
    );
  }
  head.push(extraHead);
  const lang = `lang="${escapeHtml(brand.locale)}"`;
  page = /<html\b[^>]*\blang=/i.test(page)
    ? page.replace(/(<html\b[^>]*?)\blang=(?:"[^"]*"|'[^']*'|[^\s>]*)/i, (_, start: string) => start + lang)
    : page.replace(/<html\b/i, (tag) => `${tag} ${lang}`);
  // Functions, not strings: a replacement string reads `$&` and `$'` in a name as patterns.
  return /<\/head>/i.test(page)
    ? page.replace(/<\/head>/i, (end) => head.join('') + end)
    : page.replace(/^(<!doctype html>)?/i, (start) => start + head.join(''));
}

/** A page kept ready to send: as is, brotli and gzip, and the ETag browsers revalidate it with. */
export interface ServedPage {
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

export function servedPage(html: string): ServedPage {
  const bytes = Buffer.from(html);
  return {
    html: bytes,
    br: brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(bytes, { level: 9 }),
    etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`,
  };
}

/** The encoding of a page to send for an Accept-Encoding header: brotli first, then gzip, else none. */
export function pageEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, ...params]) => !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p)))
      .map(([name]) => name!.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}
