import { useQuery } from '@tanstack/react-query';
import { FileAudio, FileImage, FileText, FileVideo, Files, HardDrive, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { fetchStorage, filesKeys, type StorageUsage } from './files-api';
import { formatBytes } from './item-kind';

type Category = StorageUsage['data']['categories'][number]['category'];

const CATEGORY_STYLE: Record<Category, { colour: string; icon: LucideIcon }> = {
  images: { colour: '#e35d3c', icon: FileImage },
  videos: { colour: '#6a6fdc', icon: FileVideo },
  audios: { colour: '#2fa59b', icon: FileAudio },
  documents: { colour: '#e8a23a', icon: FileText },
  others: { colour: '#9a8f86', icon: Files },
  empty: { colour: 'var(--surface-2)', icon: HardDrive },
};

/** /user/settings/storage: what the user stores, by category, largest share first. */
export function StoragePage() {
  const { t, i18n } = useTranslation();
  const usage = useQuery({ queryKey: filesKeys.storage, queryFn: fetchStorage });
  const categories = [...(usage.data?.categories ?? [])].sort((a, b) => b.percentage - a.percentage);
  const bytes = (value: number) => formatBytes(value, i18n.language);

  return (
    <section className="flex flex-col gap-6">
      <header className="flex flex-col gap-1">
        <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">{t('files.area')}</p>
        <h1 className="font-display text-3xl font-semibold tracking-tight sm:text-4xl">
          {t('storage.title')}
        </h1>
      </header>

      {usage.isPending ? (
        <Card className="grid h-64 place-items-center text-muted">
          <Spinner className="size-6" label={t('files.loading')} />
        </Card>
      ) : usage.isError ? (
        <Card className="p-8 text-center text-sm text-muted">{t('files.load_failed')}</Card>
      ) : (
        <Card className="flex flex-col gap-7 p-6 sm:p-8">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <div>
              <p className="text-sm text-muted">{t('storage.used')}</p>
              <p className="font-display text-4xl font-semibold tracking-tight tabular-nums">
                {bytes(usage.data.used)}
              </p>
            </div>
            <p className="text-sm text-muted">
              {usage.data.capacity === null
                ? t('storage.unlimited')
                : t('storage.of_capacity', {
                    percentage: usage.data.percentage,
                    capacity: bytes(usage.data.capacity),
                  })}
            </p>
          </div>

          <div
            className="flex h-4 w-full overflow-hidden rounded-full bg-surface-2"
            role="img"
            aria-label={t('storage.chart_label', { used: bytes(usage.data.used) })}
          >
            {categories
              .filter((entry) => entry.category !== 'empty' && entry.percentage > 0)
              .map((entry) => (
                <div
                  key={entry.category}
                  className="h-full border-r-2 border-surface last:border-r-0"
                  style={{
                    width: `${entry.percentage}%`,
                    backgroundColor: CATEGORY_STYLE[entry.category].colour,
                  }}
                />
              ))}
          </div>

          <ul className="grid gap-3 sm:grid-cols-2">
            {categories.map((entry) => {
              const { colour, icon: Icon } = CATEGORY_STYLE[entry.category];
              return (
                <li
                  key={entry.category}
                  data-testid="storage-category"
                  className="flex items-center gap-3 rounded-2xl border border-line p-3.5"
                >
                  <span
                    className={cn(
                      'grid size-10 shrink-0 place-items-center rounded-xl text-white',
                      entry.category === 'empty' && 'bg-surface-2',
                    )}
                    style={{ backgroundColor: entry.category === 'empty' ? undefined : colour }}
                  >
                    <Icon
                      className={entry.category === 'empty' ? 'size-5 text-muted' : 'size-5'}
                      aria-hidden
                    />
                  </span>
                  <div className="min-w-0 flex-1">
                    <p className="text-sm font-semibold text-ink">
                      {t(`storage.category.${entry.category}`)}
                    </p>
                    <p className="text-xs text-muted tabular-nums">{bytes(entry.used)}</p>
                  </div>
                  <span className="text-sm font-semibold text-ink tabular-nums">
                    {t('storage.percent', { value: entry.percentage })}
                  </span>
                </li>
              );
            })}
          </ul>
          {categories.some((entry) => entry.category === 'others' && entry.used > 0) && (
            <p className="text-xs text-muted">{t('storage.others_note')}</p>
          )}
        </Card>
      )}
    </section>
  );
}
