import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import sharp from 'sharp';
import { AppError } from '../lib/app-error';
import { escapeHtml } from '../lib/escape-html';
import { prepareBody, sendPrepared, type PreparedBody } from '../lib/prepared-body';
import type { Download } from '../modules/files/download.service';
import { openGraphTags, type SharePreview } from '../modules/sharing/sharing.presenter';
import { SESSION_COOKIE, syncSignedInHint } from './session.plugin';
import { brandPage, pageBrand, siteOpenGraphTags, withFirstPaint, type PageBrand } from './branded-page';

/** A share link's pages: /share/{token}, /share/{token}/file, /share/{token}/files/{id}… */
const SHARE_PAGE = /^\/share\/([A-Za-z0-9]{16,64})(?:[/?#]|$)/;

/** A share's product page: the one page other sites may show in a frame (the embed code, oEmbed). */
const PRODUCT_PAGE = /^\/share\/[A-Za-z0-9]{16,64}\/product(?:[?#]|$)/;

/** The product page's embed code (apps/web/public), which other sites' pages load (its .br and .gz too). */
const EMBED_SCRIPT = 'embed.js';

/** Paths the server answers itself (the sync clients' APIs too); an unknown one is a JSON 404, never the SPA page. */
const SERVER_PATHS =
  /^\/(api|translations|file|thumbnail|socket\.io|logout|ocs|remote\.php|index\.php)(\/|$)/;

/** What the web build writes beside index.html: per address prefix, the scripts its screen loads. */
const ROUTE_PRELOADS_FILE = 'route-preloads.json';
type RoutePreloads = Record<string, string[]>;
/** The only hrefs a route preload may name: the build's own fingerprinted scripts. */
const ASSET_SCRIPT = /^\/assets\/[\w.-]+\.js$/;

/** The product page's own entry, which the web build writes beside index.html (see apps/web/vite.config.ts). */
const PRODUCT_HTML = 'product.html';

/**
 * The largest spin frame a product page's HTML carries inline, so its first frame shows with the
 * page's first bytes instead of after its scripts and calls (docs/product-page.md); a larger one is
 * left to the page's scripts, keeping the HTML small.
 */
const INLINE_FRAME_LIMIT = 96 * 1024;
/** Images a browser shows from a data: address in the product page (the spin's frames are WebP). */
const INLINE_FRAME_TYPES = new Set(['image/webp', 'image/avif']);
/** Product pages kept, per link preview and inline frame; the oldest goes first. */
const KEPT_PRODUCT_PAGES = 32;
/**
 * The inline frame's place until the page's scripts replace it: where the spin will be (PublicFrame's
 * 4 rem header and its main's padding, max-w-6xl; from lg the spin is the left 3 of 5 columns), on
 * the theme's paper (index.css's --paper, as product.html's theme-color), only while it is shown.
 */
const FIRST_FRAME_STYLE =
  '<style>html:has(.first-frame){background:#faf7f2}' +
  '@media (prefers-color-scheme:dark){html:has(.first-frame){background:#16171d}}' +
  'body:has(.first-frame){margin:0}' +
  '.first-frame{display:block;width:calc(100vw - 2rem);height:auto;margin:calc(5.5rem + 1px) 1rem 0;' +
  'border-radius:1.5rem}' +
  '@media (min-width:40rem){.first-frame{width:calc(min(100vw,72rem) - 4rem);margin:calc(6.5rem + 1px) auto 0}}' +
  '@media (min-width:64rem){.first-frame{width:calc((min(100vw,72rem) - 5.5rem) * .6);' +
  'margin-left:calc((100vw - min(100vw,72rem)) / 2 + 2rem)}}</style>';

/** The built pages' own addresses: answered in the instance's brand like every other page, never from disk. */
const INDEX_PATHS = /^\/(index\.html|product\.html)?$/;

/**
 * Serves the built web app from WEB_DIST_DIR with a history-mode fallback: any other GET that
 * accepts HTML gets index.html and the client router takes it from there. index.html is sent in the
 * instance's brand (name, description, icons, accent: branded-page.ts), made once per change of the
 * settings or of the build and kept in memory, compressed, for every visit after. A share's product
 * page gets the build's product.html instead: the page's own, much lighter entry.
 */
export const webPlugin = fp(async (app: FastifyInstance) => {
  const root = path.resolve(app.deps.env.WEB_DIST_DIR);
  const built = existsSync(path.join(root, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root,
      index: false,
      allowedPath: (pathname) => !INDEX_PATHS.test(pathname),
      // The build writes brotli and gzip copies (file.br, file.gz); the one the browser accepts is sent.
      preCompressed: true,
      // The policy is set per file below.
      cacheControl: false,
      setHeaders: (res, file) => {
        // Vite fingerprints everything under assets/, so those never change; the rest may with a build.
        const immutable = file.startsWith(path.join(root, 'assets') + path.sep);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The same address answers other bytes to another Accept-Encoding: caches must keep them apart.
        res.setHeader('vary', 'accept-encoding');
        // The embed script is loaded by other sites' pages (a shop's): the one file they may fetch.
        if (path.basename(file).startsWith(EMBED_SCRIPT))
          res.setHeader('cross-origin-resource-policy', 'cross-origin');
      },
    });
  } else {
    app.log.warn({ root }, 'web app not built: run `npm run build` to serve the interface');
  }

  const indexFile = path.join(root, 'index.html');
  const productFile = path.join(root, PRODUCT_HTML);
  const routePreloadsFile = path.join(root, ROUTE_PRELOADS_FILE);
  /**
   * The page as last made, and what it was made from: the brand and the build (a rebuild under a
   * running server changes the scripts it names). The settings' own cache says when they changed.
   * `pages` holds it per screen whose scripts it names (`''`: none).
   */
  let kept: {
    key: string;
    built: string;
    /** product.html, or null for a build without it (the app's own route shows the page then). */
    product: string | null;
    brand: PageBrand;
    preloads: RoutePreloads;
    pages: Map<string, PreparedBody>;
    /** Product pages, by preview and inline first frame (none for a link without one). */
    productPages: Map<string, PreparedBody>;
  } | null = null;
  const current = async () => {
    const brand = pageBrand(await app.deps.settings.all(), app.deps.env.appUrl);
    const { mtimeMs, size } = await stat(indexFile);
    const key = JSON.stringify([brand, mtimeMs, size]);
    if (kept?.key !== key) {
      const [built, product, preloads] = await Promise.all([
        readFile(indexFile, 'utf8'),
        readFile(productFile, 'utf8').catch(() => null),
        readRoutePreloads(routePreloadsFile),
      ]);
      kept = { key, built, product, brand, preloads, pages: new Map(), productPages: new Map() };
    }
    return kept;
  };
  /**
   * The page for a visit: a signed-in visitor of a screen the build lists gets its scripts named
   * too, so the browser fetches them beside the entry's; anyone else the page every address shares.
   */
  const brandedPage = async (request: FastifyRequest): Promise<PreparedBody> => {
    const { built, brand, preloads, pages } = await current();
    const pathname = request.url.split('?', 1)[0]!;
    const signedIn = Boolean(request.cookies[SESSION_COOKIE]);
    const screen = signedIn
      ? (Object.keys(preloads).find((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`)) ??
        '')
      : '';
    let page = pages.get(screen);
    if (!page) {
      const scripts = (preloads[screen] ?? []).map(
        (href) => `<link rel="modulepreload" crossorigin href="${href}">`,
      );
      page = prepareBody(brandPage(built, brand, siteOpenGraphTags(brand) + scripts.join('')));
      pages.set(screen, page);
    }
    return page;
  };

  // A share link's page carries its item's name and thumbnail for link previews, made without scripts.
  const sharePreview = async (token: string): Promise<SharePreview | null> => {
    // Closed like the API: before the installation and in maintenance the page names nothing.
    const { installed, maintenance } = await app.deps.settings.all();
    if (!installed || maintenance) return null;
    return app.deps.sharing.preview(token);
  };

  /**
   * The spin's first frame of an open link's product page (the first colourway's, as the page shows
   * first), read through the link as the product's call reads it and counting no visit; null for a
   * link that is no project's or has no spin yet, or a frame too large or of another type to inline.
   */
  const firstFrame = async (token: string): Promise<{ title: string; frame: Download } | null> => {
    try {
      const { actor, share } = await app.deps.sharing.visit(token, undefined);
      const page = await app.deps.productPages.of(actor, share.item_id);
      const id = page.views[0]?.spin[0];
      if (!id) return null;
      const frame = await app.deps.downloads.file(actor, id);
      if (frame.size > INLINE_FRAME_LIMIT || !INLINE_FRAME_TYPES.has(frame.mimetype)) return null;
      return { title: page.title, frame };
    } catch (error) {
      if (error instanceof AppError) return null;
      throw error;
    }
  };

  /**
   * The product page's entry (the app's page for a build without one), with its link's preview; an
   * open link's (the one its preview names) with its spin's first frame inline in the page's root,
   * kept per link and frame.
   */
  const productPage = async (token: string): Promise<PreparedBody> => {
    const preview = await sharePreview(token);
    const { built, product, brand, productPages } = await current();
    const head = preview ? openGraphTags(preview, brand.name) : siteOpenGraphTags(brand);
    const first = preview && product ? await firstFrame(token) : null;
    // Kept whether or not it has a frame: compressing the page again for every visit of a protected
    // or unknown link would spend the CPU anyone can ask for with a made-up token.
    const key = JSON.stringify([head, first?.title, first?.frame.etag]);
    let page = productPages.get(key);
    if (!page) {
      page = prepareBody(
        first ? await framedPage(product!, brand, head, first) : brandPage(product ?? built, brand, head),
      );
      if (productPages.size >= KEPT_PRODUCT_PAGES) productPages.delete(productPages.keys().next().value!);
      productPages.set(key, page);
    }
    return page;
  };

  const sendPage = async (request: FastifyRequest, reply: FastifyReply, page: PreparedBody) => {
    syncSignedInHint(request, reply);
    return sendPrepared(request, reply, page, 'text/html; charset=utf-8');
  };

  app.setNotFoundHandler(async (request, reply) => {
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') && !SERVER_PATHS.test(request.url);
    if (built && wantsPage) {
      const token = SHARE_PAGE.exec(request.url)?.[1];
      if (token && PRODUCT_PAGE.test(request.url)) {
        allowFraming(reply);
        if ((await current()).product) reply.header('link', productEarlyRequests(token));
        return sendPage(request, reply, await productPage(token));
      }
      const preview = token ? await sharePreview(token) : null;
      const early = earlyRequests(request, (await current()).brand.locale);
      if (early) reply.header('link', early);
      if (!preview) return sendPage(request, reply, await brandedPage(request));
      const { built: page, brand } = await current();
      syncSignedInHint(request, reply);
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(brandPage(page, brand, openGraphTags(preview, brand.name)));
    }
    throw new AppError('not_found', 'errors.not_found');
  });
});

/** product.html in the brand with the spin's first frame inline in its root, in the frame's place. */
async function framedPage(
  product: string,
  brand: PageBrand,
  head: string,
  { title, frame }: { title: string; frame: Download },
): Promise<string> {
  const bytes = await buffer(await frame.open());
  const { width, height } = await sharp(bytes).metadata();
  const image =
    `<img class="first-frame" src="data:${frame.mimetype};base64,${bytes.toString('base64')}" ` +
    `width="${width}" height="${height}" alt="${escapeHtml(title)}" elementtiming="product-first-frame">`;
  return withFirstPaint(brandPage(product, brand, head + FIRST_FRAME_STYLE), image);
}

/** A folder of My files, its id (none for the root): the addresses listing-prefetch.ts reads in apps/web. */
const MY_FILES_FOLDER = /^\/platform\/files(?:\/([\w-]+))?\/?$/;

/**
 * For a signed-in visitor of a folder of My files, what the app asks for before its first render,
 * named in a `Link` header so the browser fetches it with the page instead of once the page's scripts
 * have run: the config, the user and the strings in the page's language (apps/web: app/boot.ts,
 * lib/i18n.ts), the folder's first page in the default order and the owner's team folder ids
 * (features/files/listing-prefetch.ts). `crossorigin` lets the app's own fetch() take the answers.
 * Only where the app is known to ask for each of them first: a preloaded answer nobody took would be
 * handed, stale, to a later fetch of its address. Other pages get none (null).
 */
function earlyRequests(request: FastifyRequest, locale: string): string | null {
  const folder = request.cookies[SESSION_COOKIE] ? MY_FILES_FOLDER.exec(request.url.split('?', 1)[0]!) : null;
  if (!folder) return null;
  return preloadLinks([
    '/api/config',
    '/api/user',
    `/translations/${encodeURIComponent(locale)}`,
    `/api/browse/folders/${folder[1] ?? 'all'}?sort=created_at&direction=desc&page=1&per_page=100`,
    '/api/teams/folders/all?per_page=500',
  ]);
}

/**
 * What the product page's own entry asks for before its first render, whatever the link
 * (product-main.tsx): the share's detail and the product, named in a `Link` header so the browser
 * fetches them with the page instead of once the entry's scripts have run.
 */
function productEarlyRequests(token: string): string {
  return preloadLinks([`/api/sharing/${token}`, `/api/sharing/product/${token}`]);
}

/** A `Link` header's value that has the browser fetch `urls` as the app's own fetch() will ask for them. */
function preloadLinks(urls: string[]): string {
  return urls.map((url) => `<${url}>; rel=preload; as=fetch; crossorigin`).join(', ');
}

/** The build's route preloads; none when the build has no such file (or it is not what the build writes). */
async function readRoutePreloads(file: string): Promise<RoutePreloads> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return {};
  }
  if (!parsed || typeof parsed !== 'object') return {};
  return Object.fromEntries(
    Object.entries(parsed).filter(
      (entry): entry is [string, string[]] =>
        entry[0].startsWith('/') &&
        Array.isArray(entry[1]) &&
        entry[1].every((href) => typeof href === 'string' && ASSET_SCRIPT.test(href)),
    ),
  );
}

/**
 * Lets any site frame this page (a shop embedding a product): the policy's frame-ancestors opens and
 * the older X-Frame-Options goes. What the page shows still follows the link's rules.
 */
function allowFraming(reply: FastifyReply): void {
  reply.removeHeader('x-frame-options');
  const policy = reply.getHeader('content-security-policy');
  if (typeof policy === 'string')
    reply.header('content-security-policy', policy.replace(/frame-ancestors [^;]*/, 'frame-ancestors *'));
}
