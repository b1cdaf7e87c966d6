import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { CalendarDays, Download, Images, Search } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { pushToast } from '../../components/overlays/overlay-store';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api-client';
import { useDownloadGate } from '../files/use-download-gate';
import { OutputCard } from './project-output-page';
import { OutputPreview } from './output-preview';
import { fetchGalleryDates, fetchGalleryDay, projectKeys, type ProjectFileResource } from './projects-api';
import { EmptyState, LoadFailed } from './studio-parts';

/** /gallery/files/:id? — every render (of one project, or all) grouped by date, newest first, page by page. */
export function GalleryPage() {
  const { id } = useParams();
  const ref = id ?? 'all';
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text]);
  const dates = useInfiniteQuery({
    queryKey: projectKeys.gallery(ref, search),
    queryFn: ({ pageParam }) => fetchGalleryDates(ref, pageParam, search),
    initialPageParam: 1,
    getNextPageParam: (last) =>
      last.meta.paginate.current_page < last.meta.paginate.last_page
        ? last.meta.paginate.current_page + 1
        : undefined,
  });
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = dates;
  // The next page of dates loads when the end of the list scrolls into view.
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '400px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const days = dates.data?.pages.flatMap((page) => page.data) ?? [];
  const root = dates.data?.pages[0]?.meta.root;

  return (
    <section className="flex flex-col gap-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1">
          <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">
            {t('projects.area')}
          </p>
          <h1 className="font-display text-3xl font-semibold tracking-tight sm:text-4xl">
            {root?.attributes.name ?? t('pages.gallery')}
          </h1>
        </div>
        <label className="relative w-full sm:w-80">
          <span className="sr-only">{t('projects.gallery_search')}</span>
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
            aria-hidden
          />
          <input
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder={t('projects.gallery_search')}
            className="h-10 w-full rounded-xl border border-line bg-surface pr-3 pl-9 text-sm shadow-soft focus:border-accent focus:ring-3 focus:ring-accent/15 focus:outline-none"
          />
        </label>
      </header>

      {dates.isPending ? (
        <div className="grid place-items-center py-20">
          <Spinner className="size-6" label={t('common.loading')} />
        </div>
      ) : dates.isError ? (
        <LoadFailed onRetry={() => void dates.refetch()} />
      ) : days.length === 0 ? (
        <EmptyState
          icon={<Images className="size-6" aria-hidden />}
          title={t('projects.gallery_empty_title')}
          body={search ? t('projects.gallery_no_match', { search }) : t('projects.gallery_empty_body')}
        />
      ) : (
        <div className="flex flex-col gap-10">
          {days.map((day) => (
            <GalleryDay
              key={day.date}
              projectRef={ref}
              date={day.date}
              search={search}
              images={day.images}
              videos={day.videos}
            />
          ))}
          <div ref={sentinel} className="grid place-items-center py-4">
            {isFetchingNextPage && <Spinner className="size-5" label={t('common.loading')} />}
          </div>
        </div>
      )}
    </section>
  );
}

function GalleryDay({
  projectRef,
  date,
  search,
  images,
  videos,
}: {
  projectRef: string;
  date: string;
  search: string;
  images: number;
  videos: number;
}) {
  const { t, i18n } = useTranslation();
  const guardDownload = useDownloadGate();
  const [opened, setOpened] = useState<ProjectFileResource | null>(null);
  const day = useQuery({
    queryKey: projectKeys.galleryDay(projectRef, date, search),
    queryFn: () => fetchGalleryDay(projectRef, date, search),
  });
  useEffect(() => {
    if (day.error instanceof ApiError && day.error.isNetworkError)
      pushToast('danger', t('popup_error.network_issue'));
  }, [day.error, t]);
  const label = new Date(`${date}T12:00:00Z`).toLocaleDateString(i18n.language, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
  const files = day.data ? [...day.data.data.images, ...day.data.data.videos] : [];
  return (
    <section className="flex flex-col gap-4" aria-label={label} data-testid="gallery-day">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-line pb-3">
        <div className="flex items-center gap-3">
          <span className="grid size-9 place-items-center rounded-xl bg-accent-soft text-accent">
            <CalendarDays className="size-4" aria-hidden />
          </span>
          <div>
            <h2 className="font-display text-lg font-semibold">{label}</h2>
            <p className="text-xs text-muted">
              {t('projects.gallery_counts', {
                images: t('projects.gallery_images', { count: images }),
                videos: t('projects.gallery_videos', { count: videos }),
              })}
            </p>
          </div>
        </div>
        {day.data && (
          <Button asChild size="sm" variant="secondary">
            <a href={day.data.data.links.zip} download onClick={guardDownload}>
              <Download className="size-4" aria-hidden />
              {t('projects.download_zip')}
            </a>
          </Button>
        )}
      </div>
      {day.isPending ? (
        <div className="grid place-items-center py-8">
          <Spinner className="size-5" label={t('common.loading')} />
        </div>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-4">
          {files.map((file) => (
            <li key={file.id}>
              <OutputCard file={file} onOpen={() => setOpened(file)} />
            </li>
          ))}
        </ul>
      )}
      {opened && (
        <OutputPreview files={files} file={opened} onOpen={setOpened} onClose={() => setOpened(null)} />
      )}
    </section>
  );
}
