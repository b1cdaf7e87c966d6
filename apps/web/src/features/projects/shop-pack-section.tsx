import {
  SHOP_PRESETS,
  type ShopImageCheck,
  type ShopPack,
  type ShopPackDocument,
  type ShopPackImage,
  type ShopPreset,
  type ShopPresetId,
} from '@atelier/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, Download, ExternalLink, ShoppingBag, XCircle } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pushToast } from '../../components/overlays/overlay-store';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ApiError, api } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { formatDateTime } from '../../lib/format-date';
import { useDownloadGate } from '../files/use-download-gate';
import { RenderProgressBar } from './studio-parts';

const shopPackKey = (projectId: string) => ['projects', 'shop-pack', projectId] as const;

/** The presets a new pack starts with: every marketplace that takes renders, and Amazon's white frame. */
const FIRST_CHOICE: ShopPresetId[] = ['amazon-main', 'shopify', 'google-merchant', 'instagram-shop'];

function usePercent() {
  const { i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 });
  return (value: number) => format.format(value);
}

/**
 * "Shop pack" on a project's output page: choose the marketplaces, build (one preset after another,
 * so the progress is real), see each image's checks, and download the zip.
 */
export function ShopPackSection({ projectId }: { projectId: string }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const guardDownload = useDownloadGate();
  const [chosen, setChosen] = useState<ShopPresetId[]>(FIRST_CHOICE);
  const [building, setBuilding] = useState<{ preset: ShopPresetId; done: number; total: number } | null>(
    null,
  );
  const pack = useQuery({
    queryKey: shopPackKey(projectId),
    queryFn: () => api.get<ShopPackDocument>(`/api/projects/${projectId}/shop-pack`),
  });
  const ordered = SHOP_PRESETS.filter((preset) => chosen.includes(preset.id));
  const toggle = (id: ShopPresetId) =>
    setChosen((current) => (current.includes(id) ? current.filter((c) => c !== id) : [...current, id]));

  const build = async () => {
    try {
      for (const [done, preset] of ordered.entries()) {
        setBuilding({ preset: preset.id, done, total: ordered.length });
        const built = await api.post<ShopPackDocument>(`/api/projects/${projectId}/shop-pack`, {
          presets: [preset.id],
        });
        client.setQueryData(shopPackKey(projectId), built);
      }
    } catch (error: unknown) {
      pushToast('danger', error instanceof ApiError ? error.message : t('shop_pack.failed_build'));
    } finally {
      setBuilding(null);
    }
  };

  const shown = pack.data?.data ?? null;
  return (
    <Card className="flex flex-col gap-5 p-4 sm:p-6" data-testid="shop-pack">
      <header className="flex flex-col gap-1.5">
        <h2 className="flex items-center gap-2 font-display text-xl font-semibold tracking-tight">
          <ShoppingBag className="size-5 text-accent" aria-hidden />
          {t('shop_pack.title')}
        </h2>
        <p className="max-w-3xl text-sm text-muted">{t('shop_pack.lead')}</p>
      </header>

      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-semibold">{t('shop_pack.presets')}</legend>
        <div className="grid gap-2 sm:grid-cols-2 xl:grid-cols-3">
          {SHOP_PRESETS.map((preset) => (
            <PresetChoice
              key={preset.id}
              preset={preset}
              checked={chosen.includes(preset.id)}
              onToggle={() => toggle(preset.id)}
            />
          ))}
        </div>
      </fieldset>

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <Button onClick={() => void build()} loading={building !== null} disabled={ordered.length === 0}>
          {t('shop_pack.build')}
        </Button>
        {ordered.length > 0 ? (
          <Button asChild variant="secondary">
            <a
              href={`/api/projects/${projectId}/shop-pack/zip?presets=${ordered.map((p) => p.id).join(',')}`}
              download
              onClick={guardDownload}
            >
              <Download className="size-4" aria-hidden />
              {t('shop_pack.download')}
            </a>
          </Button>
        ) : (
          <p className="text-sm text-muted">{t('shop_pack.choose_one')}</p>
        )}
      </div>

      {building && (
        <div className="flex flex-col gap-1.5" data-testid="shop-pack-progress">
          <p className="text-sm" aria-live="polite">
            {t('shop_pack.building', {
              preset: SHOP_PRESETS.find((p) => p.id === building.preset)!.name,
              done: building.done + 1,
              total: building.total,
            })}
          </p>
          <RenderProgressBar
            progress={Math.round((building.done / building.total) * 100)}
            label={t('shop_pack.title')}
          />
        </div>
      )}

      {shown ? (
        <PackChecks pack={shown} builtAt={formatDateTime(shown.built_at, i18n.language)} />
      ) : (
        !pack.isPending && <p className="text-sm text-muted">{t('shop_pack.none_yet')}</p>
      )}

      <p className="flex gap-2 rounded-xl bg-surface-2 px-3 py-2.5 text-xs text-muted">
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
        {t('shop_pack.renders_note')}
      </p>
    </Card>
  );
}

function PresetChoice({
  preset,
  checked,
  onToggle,
}: {
  preset: ShopPreset;
  checked: boolean;
  onToggle: () => void;
}) {
  const { t } = useTranslation();
  const percent = usePercent();
  const rules = [
    t('shop_pack.size', { width: preset.width, height: preset.height }),
    preset.white_background && t('shop_pack.rule.white'),
    preset.min_fill !== null &&
      (preset.max_fill === null
        ? t('shop_pack.rule.fill_min', { min: percent(preset.min_fill) })
        : t('shop_pack.rule.fill_range', { min: percent(preset.min_fill), max: percent(preset.max_fill) })),
  ].filter(Boolean);
  const rendersLimited = preset.renders !== 'allowed';
  return (
    <label
      className={cn(
        'flex cursor-pointer gap-3 rounded-xl border p-3 transition-colors',
        checked ? 'border-accent bg-accent-soft/40' : 'border-line hover:bg-surface-2',
      )}
    >
      <input
        type="checkbox"
        className="mt-0.5 size-4 shrink-0 accent-[var(--color-accent)]"
        checked={checked}
        onChange={onToggle}
        data-testid={`shop-preset-${preset.id}`}
      />
      <span className="flex min-w-0 flex-col gap-1">
        <span className="text-sm font-medium">{preset.name}</span>
        <span className="text-xs text-muted">{rules.join(' · ')}</span>
        <span className={cn('text-xs', rendersLimited ? 'text-danger' : 'text-success')}>
          {t(`shop_pack.renders.${preset.renders}`)}
        </span>
        <a
          href={preset.source}
          target="_blank"
          rel="noreferrer noopener"
          className="inline-flex items-center gap-1 self-start text-xs text-accent hover:underline"
          onClick={(event) => event.stopPropagation()}
        >
          {t('shop_pack.source')}
          <ExternalLink className="size-3" aria-hidden />
        </a>
      </span>
    </label>
  );
}

function PackChecks({ pack, builtAt }: { pack: ShopPack; builtAt: string }) {
  const { t } = useTranslation();
  const passed = pack.images.filter((image) => image.check.passed).length;
  return (
    <section className="flex flex-col gap-3" data-testid="shop-pack-checks">
      <p className="text-sm">
        <span className="font-semibold">{t('shop_pack.summary', { passed, total: pack.images.length })}</span>
        <span className="text-muted"> · {t('shop_pack.built_at', { date: builtAt })}</span>
      </p>
      {SHOP_PRESETS.filter((preset) => pack.presets.includes(preset.id)).map((preset) => (
        <div key={preset.id} className="flex flex-col gap-2">
          <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">{preset.name}</h3>
          <ul className="flex flex-col divide-y divide-line rounded-xl border border-line">
            {pack.images
              .filter((image) => image.preset === preset.id)
              .map((image) => (
                <ImageChecks key={image.name} image={image} />
              ))}
          </ul>
        </div>
      ))}
    </section>
  );
}

function ImageChecks({ image }: { image: ShopPackImage }) {
  const { t } = useTranslation();
  const percent = usePercent();
  const { size, background, fill, marked } = image.check;
  const checks: { key: keyof Omit<ShopImageCheck, 'passed'>; passed: boolean; text: string }[] = [
    {
      key: 'size',
      passed: size.passed,
      text: t('shop_pack.check.size', { width: size.width, height: size.height }),
    },
    {
      key: 'background',
      passed: background.passed,
      text: background.white_required
        ? t('shop_pack.check.background_white', { share: percent(background.white_share) })
        : t('shop_pack.check.background', { colour: background.colour }),
    },
    { key: 'fill', passed: fill.passed, text: t('shop_pack.check.fill', { ratio: percent(fill.ratio) }) },
    {
      key: 'marked',
      passed: marked.passed,
      text: t(marked.passed ? 'shop_pack.check.marked' : 'shop_pack.check.unmarked'),
    },
  ];
  return (
    <li className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center" data-testid="shop-pack-image">
      <div className="flex min-w-0 flex-1 items-center gap-2">
        {image.check.passed ? (
          <CheckCircle2 className="size-4 shrink-0 text-success" aria-label={t('shop_pack.passed')} />
        ) : (
          <XCircle className="size-4 shrink-0 text-danger" aria-label={t('shop_pack.failed')} />
        )}
        <span className="truncate text-sm" title={image.name}>
          {image.source_name}
        </span>
      </div>
      <ul className="flex flex-wrap gap-1.5">
        {checks.map((check) => (
          <li
            key={check.key}
            data-check={check.key}
            data-passed={check.passed}
            className={cn(
              'inline-flex h-6 items-center rounded-full px-2.5 text-xs font-medium whitespace-nowrap tabular-nums',
              check.passed ? 'bg-success-soft text-success' : 'bg-danger-soft text-danger',
            )}
          >
            {check.text}
          </li>
        ))}
      </ul>
    </li>
  );
}
