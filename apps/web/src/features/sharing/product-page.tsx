import type { ProductPageDocument, ProductView } from '@atelier/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Box, Download, PackageOpen, Smartphone, TriangleAlert } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../components/page-loader';
import { FrameNotice } from '../../components/public-frame';
import { Button } from '../../components/ui/button';
import { api, ApiError } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { EmbedOpenLink } from './product-embed';
import { FIRST_FRAME_MARK } from './product-marks';
import { anonymous, sharingKeys } from './sharing-api';

// The 3D view brings three.js: loaded only when the visitor opens it.
const ProductModelView = lazy(() => import('./product-model-view'));

/** Pixels of a drag that turn the spin by one frame (36 frames: a 360 px drag turns it once). */
const PX_PER_FRAME = 10;

/** What the page shows; its own entry asks for it at once, beside the share's detail. */
export const productQuery = (token: string) =>
  queryOptions({
    queryKey: [...sharingKeys.visit(token), 'product'],
    queryFn: ({ signal }) =>
      api
        .get<ProductPageDocument>(`/api/sharing/product/${token}`, { ...anonymous, signal })
        .then((answer) => answer.data.attributes),
    retry: false,
  });

/**
 * /share/{token}/product, once the link is open: a project's share as a product page — the hero
 * still, a 360° spin of the turntable's frames (drag, swipe, arrow keys; the first frame first, the
 * rest fetched behind it), the model in 3D on demand, "View in your room" for Android and iOS, and
 * the colourways. Its own entry (product-entry.tsx) and the app's route (product-route.tsx) show it.
 */
export function ProductPage({ token, embedded = false }: { token: string; embedded?: boolean }) {
  const { t } = useTranslation();
  const product = useQuery(productQuery(token));
  const [viewIndex, setViewIndex] = useState(0);
  const [open3d, setOpen3d] = useState(false);

  if (product.isPending) return <PageLoader />;
  if (product.isError)
    return (
      <FrameNotice
        icon={TriangleAlert}
        tone={product.error instanceof ApiError && product.error.status === 404 ? 'accent' : 'danger'}
        title={t('pages.product')}
        body={t('product.none')}
      />
    );
  const page = product.data;
  const view = page.views[Math.min(viewIndex, page.views.length - 1)]!;
  // One GLB carries every colourway (KHR_materials_variants): the 3D view keeps it and switches.
  const model = page.views.find((option) => option.glb)?.glb ?? null;
  const stage =
    open3d && model ? (
      <Suspense fallback={<PageLoader />}>
        <ProductModelView url={model} variant={view.variant?.id ?? null} />
      </Suspense>
    ) : (
      <Spin key={view.variant?.id ?? ''} frames={view.spin} poster={view.stills[0] ?? null} />
    );
  const colourways = page.views.length > 1 && (
    <div role="group" aria-label={t('product.colourways')} className="flex flex-wrap gap-2">
      {page.views.map((option, index) => (
        <Button
          key={option.variant?.id ?? ''}
          variant={index === viewIndex ? 'primary' : 'secondary'}
          size="sm"
          aria-pressed={index === viewIndex}
          onClick={() => setViewIndex(index)}
        >
          {option.variant?.name ?? t('product.own_finish')}
        </Button>
      ))}
    </div>
  );
  const toggle3d = model && (
    <Button
      variant="secondary"
      size={embedded ? 'sm' : 'md'}
      onClick={() => setOpen3d((shown) => !shown)}
      aria-pressed={open3d}
    >
      <Box className="size-4" aria-hidden />
      {open3d ? t('product.close_3d') : t('product.view_3d')}
    </Button>
  );

  // In a shop's frame: the spin fills it, above one line of the title, the choices and the way out.
  if (embedded)
    return (
      <article className="flex h-dvh flex-col overflow-hidden">
        <div className="relative min-h-0 flex-1 bg-surface">{stage}</div>
        <footer className="flex flex-wrap items-center gap-2 border-t border-line bg-paper px-3 py-2">
          <h1 className="mr-auto min-w-0 truncate font-display text-base font-semibold text-ink">
            {page.title}
          </h1>
          {colourways}
          {toggle3d}
          <EmbedOpenLink token={token} />
        </footer>
      </article>
    );

  return (
    <article className="mx-auto grid w-full max-w-6xl gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <section className="flex flex-col gap-3">
        <div className="relative aspect-square w-full overflow-hidden rounded-3xl border border-line bg-surface shadow-soft">
          {stage}
        </div>
        {view.stills.length > 0 && (
          <ul className="flex gap-2 overflow-x-auto" aria-label={t('product.stills')}>
            {view.stills.map((src, index) => (
              <li key={src} className="shrink-0">
                <img
                  src={src}
                  alt={t('product.still', { n: index + 1 })}
                  loading="lazy"
                  className="size-20 rounded-xl border border-line bg-surface object-cover"
                />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="flex flex-col gap-5">
        <header className="flex flex-col gap-2">
          <h1 className="font-display text-3xl font-semibold text-ink">{page.title}</h1>
          {page.description && <p className="text-sm leading-relaxed text-muted">{page.description}</p>}
        </header>
        {colourways}
        {toggle3d && <div className="flex flex-wrap gap-2">{toggle3d}</div>}
        <RoomLinks view={view} title={page.title} />
        <div className="flex flex-wrap gap-2 border-t border-line pt-4">
          {view.glb && (
            <Button asChild variant="ghost" size="sm">
              <a href={`${view.glb}?download=1`}>
                <Download className="size-4" aria-hidden />
                {t('product.download_model')}
              </a>
            </Button>
          )}
          <Button asChild variant="ghost" size="sm">
            <a href={`/api/sharing/shop-pack/${token}`} data-testid="shop-pack-link">
              <PackageOpen className="size-4" aria-hidden />
              {t('product.shop_pack')}
            </a>
          </Button>
        </div>
      </section>
    </article>
  );
}

/**
 * "View in your room": AR Quick Look opens the USDZ from a link with rel="ar" (it must hold an
 * image); Android's Scene Viewer opens the GLB through an intent, at the model's real size.
 */
function RoomLinks({ view, title }: { view: ProductView; title: string }) {
  const { t } = useTranslation();
  if (!view.glb && !view.usdz) return null;
  const absolute = (path: string) => new URL(path, window.location.origin).href;
  const fallback = absolute(window.location.pathname);
  const intent = view.glb
    ? `intent://arvr.google.com/scene-viewer/1.0?file=${encodeURIComponent(absolute(view.glb))}` +
      `&mode=ar_preferred&resizable=false&title=${encodeURIComponent(title)}` +
      `#Intent;scheme=https;package=com.google.ar.core;action=android.intent.action.VIEW;` +
      `S.browser_fallback_url=${encodeURIComponent(fallback)};end;`
    : null;
  return (
    <div className="flex flex-col gap-2 rounded-2xl bg-surface-2 p-4">
      <p className="flex items-center gap-2 text-sm font-medium text-ink">
        <Smartphone className="size-4" aria-hidden />
        {t('product.ar')}
      </p>
      <div className="flex flex-wrap gap-2">
        {view.usdz && (
          <a
            rel="ar"
            href={view.usdz}
            className="text-sm font-medium text-accent underline-offset-4 hover:underline"
          >
            {/* AR Quick Look opens only a rel="ar" link whose first child is an image. */}
            <img src={view.stills[0] ?? ''} alt="" className="hidden" />
            {t('product.ar_ios')}
          </a>
        )}
        {intent && (
          <a href={intent} className="text-sm font-medium text-accent underline-offset-4 hover:underline">
            {t('product.ar_android')}
          </a>
        )}
      </div>
    </div>
  );
}

/** Loads every frame after the first, one after another, so the first shows as early as it can. */
function usePreloaded(frames: readonly string[]): number {
  const [loaded, setLoaded] = useState(1);
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      for (const [index, src] of frames.entries()) {
        if (index === 0) continue;
        const image = new Image();
        image.src = src;
        await image.decode().catch(() => undefined);
        if (cancelled) return;
        setLoaded(index + 1);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [frames]);
  return loaded;
}

/** The 360° spin: a slider over the turntable's frames, turned by dragging, swiping or the arrow keys. */
function Spin({ frames, poster }: { frames: readonly string[]; poster: string | null }) {
  const { t } = useTranslation();
  const [frame, setFrame] = useState(0);
  const drag = useRef<{ x: number; frame: number } | null>(null);
  const loaded = usePreloaded(frames);
  const total = frames.length;
  if (total === 0) return poster ? <img src={poster} alt="" className="size-full object-contain" /> : null;
  const turn = (to: number) => setFrame(((to % total) + total) % total);
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, frame };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    // Dragging right turns the product the way the hand moves.
    turn(drag.current.frame - Math.round((event.clientX - drag.current.x) / PX_PER_FRAME));
  };
  // A frame not yet fetched shows the nearest one that is.
  const shown = Math.min(frame, loaded - 1);
  return (
    <div
      role="slider"
      tabIndex={0}
      aria-label={t('product.spin')}
      aria-valuemin={1}
      aria-valuemax={total}
      aria-valuenow={frame + 1}
      aria-valuetext={t('product.frame', { frame: frame + 1, total })}
      data-testid="product-spin"
      className="size-full cursor-grab touch-none select-none outline-none focus-visible:ring-2 focus-visible:ring-accent active:cursor-grabbing"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={() => (drag.current = null)}
      onPointerCancel={() => (drag.current = null)}
      onKeyDown={(event) => {
        const step = { ArrowLeft: -1, ArrowRight: 1, Home: -frame, End: total - 1 - frame }[event.key];
        if (step === undefined) return;
        event.preventDefault();
        turn(frame + step);
      }}
    >
      <img
        src={frames[shown]}
        alt=""
        draggable={false}
        fetchPriority="high"
        className="pointer-events-none size-full object-contain"
        onLoad={() => {
          if (performance.getEntriesByName(FIRST_FRAME_MARK).length === 0) performance.mark(FIRST_FRAME_MARK);
        }}
      />
      <span
        className={cn(
          'pointer-events-none absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full bg-surface/90 px-3 py-1 text-xs font-medium text-muted shadow-soft',
        )}
      >
        {t('product.spin_hint')}
      </span>
    </div>
  );
}
