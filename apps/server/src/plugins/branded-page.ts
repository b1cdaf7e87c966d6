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

// The built page is read with a small scanner instead of regular expressions: a pattern that looks for a
// tag and its attributes backtracks on unclosed tags, and the scanner reads each character at most twice.

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
const isNameChar = (c: string | undefined) =>
  c !== undefined &&
  ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '-');

interface Attribute {
  /** Lower case. */
  name: string;
  value: string;
  /** Where the attribute's text starts and ends in the page. */
  start: number;
  end: number;
}

interface StartTag {
  /** Where its `<` is, and just after its `>`. */
  start: number;
  end: number;
  /** Lower case. */
  name: string;
  attributes: Attribute[];
}

/** The page's start tags in order; a tag left open at the end of the page ends the list. */
function* startTags(page: string): Generator<StartTag> {
  let from = 0;
  for (;;) {
    const start = page.indexOf('<', from);
    if (start === -1) return;
    let i = start + 1;
    while (isNameChar(page[i])) i++;
    if (i === start + 1) {
      from = i;
      continue;
    }
    const name = page.slice(start + 1, i).toLowerCase();
    const attributes: Attribute[] = [];
    for (;;) {
      while (isSpace(page[i]) || page[i] === '/') i++;
      if (i >= page.length) return;
      if (page[i] === '>') break;
      const attributeStart = i;
      i++; // a name's first character may be anything but space, '/' and '>'
      while (i < page.length && !isSpace(page[i]) && page[i] !== '>' && page[i] !== '/' && page[i] !== '=')
        i++;
      const attributeName = page.slice(attributeStart, i).toLowerCase();
      let value = '';
      let j = i;
      while (isSpace(page[j])) j++;
      if (page[j] === '=') {
        j++;
        while (isSpace(page[j])) j++;
        const quote = page[j];
        if (quote === '"' || quote === "'") {
          const close = page.indexOf(quote, j + 1);
          if (close === -1) return;
          value = page.slice(j + 1, close);
          i = close + 1;
        } else {
          const valueStart = j;
          while (j < page.length && !isSpace(page[j]) && page[j] !== '>') j++;
          value = page.slice(valueStart, j);
          i = j;
        }
      }
      attributes.push({ name: attributeName, value, start: attributeStart, end: i });
    }
    yield { start, end: i + 1, name, attributes };
    from = i + 1;
  }
}

/** Where `text` (lower case, starting with `<`) next occurs in the page from `from`, in any case; -1 if not. */
function indexOfTag(page: string, text: string, from: number): number {
  for (let at = page.indexOf('<', from); at !== -1; at = page.indexOf('<', at + 1)) {
    if (page.slice(at, at + text.length).toLowerCase() === text) return at;
  }
  return -1;
}

const attribute = (tag: StartTag, name: string) =>
  tag.attributes.find((a) => a.name === name)?.value.toLowerCase();

const BUILT_ICON_RELS = new Set(['icon', 'shortcut icon', 'apple-touch-icon']);

/** Tags of the built page that the brand replaces: where each ends, or null for a tag it keeps. */
const BUILT_TAGS = {
  title: (page: string, tag: StartTag) => {
    if (tag.name !== 'title') return null;
    const close = indexOfTag(page, '</title>', tag.end);
    return close === -1 ? null : close + '</title>'.length;
  },
  description: (_: string, tag: StartTag) =>
    tag.name === 'meta' && attribute(tag, 'name') === 'description' ? tag.end : null,
  icons: (_: string, tag: StartTag) =>
    tag.name === 'link' && BUILT_ICON_RELS.has(attribute(tag, 'rel') ?? '') ? tag.end : null,
  themeColor: (_: string, tag: StartTag) =>
    tag.name === 'meta' && attribute(tag, 'name') === 'theme-color' ? tag.end : null,
};

/** The page without the tags `removed` ends (with the whitespace before each). */
function withoutTags(page: string, ...removed: ((page: string, tag: StartTag) => number | null)[]): string {
  const kept: string[] = [];
  let last = 0;
  for (const tag of startTags(page)) {
    if (tag.start < last) continue;
    const end = removed.reduce<number | null>((found, ends) => found ?? ends(page, tag), null);
    if (end === null) continue;
    let start = tag.start;
    while (start > last && isSpace(page[start - 1])) start--;
    kept.push(page.slice(last, start));
    last = end;
  }
  kept.push(page.slice(last));
  return kept.join('');
}

/** The page with `lang` (a whole attribute) on its html tag, in place of the one it had. */
function withLang(page: string, lang: string): string {
  for (const tag of startTags(page)) {
    if (tag.name !== 'html') continue;
    const had = tag.attributes.find((a) => a.name === 'lang');
    return had
      ? page.slice(0, had.start) + lang + page.slice(had.end)
      : `${page.slice(0, tag.start + 5)} ${lang}${page.slice(tag.start + 5)}`;
  }
  return page;
}

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
  let page = withoutTags(built, BUILT_TAGS.title, BUILT_TAGS.description, BUILT_TAGS.icons);
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
    page = withoutTags(page, BUILT_TAGS.themeColor);
    const palette = accentPalette(brand.accent);
    head.push(
      `<meta name="theme-color" content="${palette.light.accent}" media="(prefers-color-scheme: light)">`,
      `<meta name="theme-color" content="${palette.dark.accent}" media="(prefers-color-scheme: dark)">`,
      `<style id="${ACCENT_STYLE_ID}">${accentStyleSheet(palette)}</style>`,
    );
  }
  head.push(extraHead);
  const lang = `lang="${escapeHtml(brand.locale)}"`;
  page = withLang(page, lang);
  const headEnd = indexOfTag(page, '</head>', 0);
  if (headEnd !== -1) return page.slice(0, headEnd) + head.join('') + page.slice(headEnd);
  const doctype = page.slice(0, '<!doctype html>'.length).toLowerCase() === '<!doctype html>' ? 15 : 0;
  return page.slice(0, doctype) + head.join('') + page.slice(doctype);
}

/**
 * The page with `markup` (trusted) inside its root element, to show before its scripts run, and its
 * stylesheets moved from the head to just after the root: a stylesheet in the head holds back the
 * whole page's first paint until it has loaded (another round trip), one in the body only what
 * follows it, and the page's scripts still wait for it before they run. The page unchanged if it
 * has no empty root element.
 */
export function withFirstPaint(page: string, markup: string): string {
  const stylesheets: string[] = [];
  const stylesheet = (at: string, tag: StartTag) => {
    if (tag.name !== 'link' || attribute(tag, 'rel') !== 'stylesheet') return null;
    stylesheets.push(at.slice(tag.start, tag.end));
    return tag.end;
  };
  const root = [...startTags(page)].find((tag) => tag.name === 'div' && attribute(tag, 'id') === 'root');
  if (!root || page.slice(root.end, root.end + '</div>'.length).toLowerCase() !== '</div>') return page;
  const rootEnd = root.end + '</div>'.length;
  const before = withoutTags(page.slice(0, root.start), stylesheet);
  return `${before}${page.slice(root.start, root.end)}${markup}</div>${stylesheets.join('')}${page.slice(rootEnd)}`;
}
