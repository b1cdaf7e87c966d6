import type { ProjectVariant, StudioFinish, StudioMaterial } from '@atelier/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Eye, Palette, Plus, Trash2, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { control, InputField, SelectField } from '../../components/ui/field';
import { ApiError } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { useSession } from '../session/session-queries';
import { projectKeys, updateProjectSetting, useFinishes, type ProjectFileResource } from './projects-api';
import { hexToLinear, linearToHex } from './studio-names';

/** One colourway as edited: its name and its rows of part slot → finish (and colour). */
interface DraftVariant {
  key: number;
  name: string;
  rows: Array<{ key: number; slot: string; finish: string; color?: string }>;
}

let nextKey = 1;

const toDraft = (variant: ProjectVariant): DraftVariant => ({
  key: nextKey++,
  name: variant.name,
  rows: Object.entries(variant.finishes).map(([slot, { finish, color }]) => ({
    key: nextKey++,
    slot,
    finish,
    color,
  })),
});

/** A lower-case file-safe slug of a name (`Rose gold` → `rose-gold`); empty for a name without latin letters or digits. */
const slugOf = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');

/** The variants to save: ids from their names, made unique in the list (outputs are named by them). */
function fromDrafts(drafts: DraftVariant[]): ProjectVariant[] {
  const taken = new Set<string>();
  return drafts.map((draft, index) => {
    const base = slugOf(draft.name) || `colourway-${index + 1}`;
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base.slice(0, 36)}-${n}`;
    taken.add(id);
    return {
      id,
      name: draft.name.trim(),
      finishes: Object.fromEntries(
        draft.rows.map((row) => [
          row.slot.trim(),
          row.color ? { finish: row.finish, color: row.color } : { finish: row.finish },
        ]),
      ),
    };
  });
}

/** The materials a colourway gives its part slots, as the viewer takes them (finish colours linear). */
export function colourwayMaterials(
  rows: DraftVariant['rows'],
  finishes: readonly StudioFinish[],
): Record<string, StudioMaterial> {
  const materials: Record<string, StudioMaterial> = {};
  for (const row of rows) {
    const finish = finishes.find((f) => f.id === row.finish);
    if (finish && row.slot.trim())
      materials[row.slot.trim()] = row.color
        ? { ...finish.material, baseColor: hexToLinear(row.color) }
        : finish.material;
  }
  return materials;
}

/**
 * The project's colourways: each a name and the finish of each part slot ('*' for every part), so
 * one model renders as a set per colourway (yellow, white, rose gold; stone or plastic colours).
 * Edited here and saved together; one at a time can be shown in the viewer (`onPreview`).
 */
export function ColourwaysEditor({
  projectId,
  categoryId,
  variants,
  onPreview,
}: {
  projectId: string;
  categoryId: string;
  variants: ProjectVariant[];
  onPreview: (materials: Record<string, StudioMaterial> | null) => void;
}) {
  const { t } = useTranslation();
  const { user } = useSession();
  const client = useQueryClient();
  const finishes = useFinishes();
  const offered = (finishes.data ?? []).filter((f) => f.categories.includes(categoryId));
  const [saved, setSaved] = useState(variants);
  const [drafts, setDrafts] = useState(() => variants.map(toDraft));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [previewed, setPreviewed] = useState<number | null>(null);
  const shown = drafts.find((d) => d.key === previewed);
  const previewKey = shown ? JSON.stringify(colourwayMaterials(shown.rows, offered)) : null;
  // The viewer follows the colourway shown as it is edited, and lets go of it when it is removed.
  useEffect(() => {
    onPreview(previewKey === null ? null : (JSON.parse(previewKey) as Record<string, StudioMaterial>));
  }, [previewKey, onPreview]);
  // Another tab or a reset changed them: show what the server holds.
  if (saved !== variants) {
    setSaved(variants);
    setDrafts(variants.map(toDraft));
  }
  const dirty = JSON.stringify(fromDrafts(drafts)) !== JSON.stringify(variants);

  const update = (key: number, change: (draft: DraftVariant) => DraftVariant) =>
    setDrafts((all) => all.map((draft) => (draft.key === key ? change(draft) : draft)));

  const add = () => {
    // A new colourway starts in the first finish no other colourway uses for every part, named after it.
    const used = new Set(drafts.flatMap((d) => d.rows.filter((r) => r.slot === '*').map((r) => r.finish)));
    const finish = offered.find((f) => !used.has(f.id)) ?? offered[0];
    if (!finish) return;
    setDrafts((all) => [
      ...all,
      {
        key: nextKey++,
        name: t(`projects.finish.${finish.id}`),
        rows: [{ key: nextKey++, slot: '*', finish: finish.id }],
      },
    ]);
  };

  async function save() {
    setSaving(true);
    setError(null);
    try {
      const next = fromDrafts(drafts);
      await updateProjectSetting(projectId, user!.id, 'variants', next.length > 0 ? next : null);
      await client.invalidateQueries({
        queryKey: projectKeys.all,
        predicate: (q) => q.queryKey[1] !== 'progress',
      });
    } catch (caught) {
      setError(
        caught instanceof ApiError ? (caught.fieldError('updateValue') ?? caught.message) : String(caught),
      );
    } finally {
      setSaving(false);
    }
  }

  return (
    <section aria-labelledby="colourways-title" className="flex flex-col gap-4" data-testid="colourways">
      <div className="flex flex-col gap-1">
        <h2 id="colourways-title" className="flex items-center gap-2 text-sm font-semibold">
          <Palette className="size-4 text-accent" aria-hidden />
          {t('projects.colourways.title')}
        </h2>
        <p className="text-xs text-muted">{t('projects.colourways.lead')}</p>
        <p className="text-xs text-muted">{t('projects.colourways.slot_hint')}</p>
      </div>
      {drafts.length === 0 && <p className="text-sm text-muted">{t('projects.colourways.none')}</p>}
      <ol className="flex flex-col gap-3">
        {drafts.map((draft, index) => (
          <li
            key={draft.key}
            className="flex flex-col gap-3 rounded-xl border border-line p-3"
            data-testid="colourway"
          >
            <div className="flex items-end gap-2">
              <InputField
                label={t('projects.colourways.name', { number: index + 1 })}
                className="min-w-0 flex-1"
                value={draft.name}
                maxLength={60}
                onChange={(event) => update(draft.key, (d) => ({ ...d, name: event.target.value }))}
              />
              <Button
                size="icon"
                variant={previewed === draft.key ? 'secondary' : 'ghost'}
                className="size-11"
                aria-pressed={previewed === draft.key}
                aria-label={t('projects.colourways.preview', { name: draft.name })}
                onClick={() => setPreviewed((key) => (key === draft.key ? null : draft.key))}
              >
                <Eye className="size-4" aria-hidden />
              </Button>
              <Button
                size="icon"
                variant="ghost"
                className="size-11"
                aria-label={t('projects.colourways.remove', { name: draft.name })}
                onClick={() => setDrafts((all) => all.filter((d) => d.key !== draft.key))}
              >
                <Trash2 className="size-4" aria-hidden />
              </Button>
            </div>
            {draft.rows.map((row) => (
              <FinishRow
                key={row.key}
                row={row}
                offered={offered}
                variantName={draft.name}
                onChange={(next) =>
                  update(draft.key, (d) => ({
                    ...d,
                    rows: d.rows.map((r) => (r.key === row.key ? { ...r, ...next } : r)),
                  }))
                }
                onRemove={
                  draft.rows.length > 1
                    ? () =>
                        update(draft.key, (d) => ({ ...d, rows: d.rows.filter((r) => r.key !== row.key) }))
                    : undefined
                }
              />
            ))}
            <Button
              size="sm"
              variant="ghost"
              className="self-start"
              disabled={draft.rows.length >= 16 || !offered[0]}
              onClick={() =>
                update(draft.key, (d) => ({
                  ...d,
                  rows: [...d.rows, { key: nextKey++, slot: '', finish: offered[0]!.id }],
                }))
              }
            >
              <Plus className="size-4" aria-hidden />
              {t('projects.colourways.add_part')}
            </Button>
          </li>
        ))}
      </ol>
      {error && (
        <p role="alert" className="rounded-xl bg-danger-soft px-3 py-2 text-sm text-danger">
          {error}
        </p>
      )}
      <div className="flex flex-wrap justify-between gap-2">
        <Button variant="secondary" onClick={add} disabled={drafts.length >= 12 || offered.length === 0}>
          <Plus className="size-4" aria-hidden />
          {t('projects.colourways.add')}
        </Button>
        <Button onClick={save} loading={saving} disabled={!dirty || drafts.some((d) => !d.name.trim())}>
          {t('projects.colourways.save')}
        </Button>
      </div>
    </section>
  );
}

/** A part slot, its finish and, for a finish that comes in any colour, the colour. */
function FinishRow({
  row,
  offered,
  variantName,
  onChange,
  onRemove,
}: {
  row: DraftVariant['rows'][number];
  offered: StudioFinish[];
  variantName: string;
  onChange: (next: Partial<DraftVariant['rows'][number]>) => void;
  onRemove?: () => void;
}) {
  const { t } = useTranslation();
  const finish = offered.find((f) => f.id === row.finish);
  return (
    <div className="flex flex-wrap items-end gap-2">
      <InputField
        label={t('projects.colourways.slot')}
        className="w-28"
        value={row.slot}
        maxLength={64}
        onChange={(event) => onChange({ slot: event.target.value })}
      />
      <SelectField
        label={t('projects.colourways.finish')}
        className="min-w-36 flex-1"
        value={row.finish}
        onChange={(event) => onChange({ finish: event.target.value, color: undefined })}
        options={offered.map((f) => ({ value: f.id, label: t(`projects.finish.${f.id}`) }))}
      />
      {finish?.colourable && (
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          {t('projects.colourways.colour')}
          <input
            type="color"
            className={cn(control, 'h-11 w-14 cursor-pointer p-1')}
            value={row.color ?? linearToHex(finish.material.baseColor)}
            onChange={(event) => onChange({ color: event.target.value })}
          />
        </label>
      )}
      {onRemove && (
        <Button
          size="icon"
          variant="ghost"
          className="size-11"
          aria-label={t('projects.colourways.remove_part', { slot: row.slot || '…', name: variantName })}
          onClick={onRemove}
        >
          <X className="size-4" aria-hidden />
        </Button>
      )}
    </div>
  );
}

/** Toggles for which colourways a run renders (all to start with); none chosen renders the project's own finishes. */
export function ColourwayPicker({
  variants,
  chosen,
  onChange,
}: {
  variants: ProjectVariant[];
  chosen: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="flex flex-col gap-1.5">
      <legend className="mb-1.5 text-sm font-medium">{t('projects.colourways.render')}</legend>
      <div className="flex flex-wrap gap-2">
        {variants.map((variant) => {
          const on = chosen.has(variant.id);
          return (
            <button
              key={variant.id}
              type="button"
              aria-pressed={on}
              onClick={() => {
                const next = new Set(chosen);
                if (on) next.delete(variant.id);
                else next.add(variant.id);
                onChange(next);
              }}
              className={cn(
                'h-11 cursor-pointer rounded-xl border px-3 text-sm font-medium transition-colors',
                on
                  ? 'border-accent bg-accent-soft text-ink'
                  : 'border-line bg-surface text-muted hover:text-ink',
              )}
            >
              {variant.name}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}

/**
 * Outputs in groups by the colourway they show: the project's colourways in their order, then any
 * since removed, then the outputs in the project's own finishes. One group when no output has one.
 */
export function groupByColourway(
  files: ProjectFileResource[],
  order: readonly ProjectVariant[] = [],
): Array<{ variant: { id: string; name: string } | null; files: ProjectFileResource[] }> {
  const groups = new Map<
    string,
    { variant: { id: string; name: string } | null; files: ProjectFileResource[] }
  >();
  for (const file of files) {
    const variant = file.meta.render?.attributes.variant ?? null;
    const key = variant?.id ?? '';
    const group = groups.get(key) ?? { variant, files: [] };
    group.files.push(file);
    groups.set(key, group);
  }
  const rank = (variant: { id: string } | null): number => {
    if (!variant) return order.length + 1;
    const index = order.findIndex((v) => v.id === variant.id);
    return index < 0 ? order.length : index;
  };
  return [...groups.values()].sort((a, b) => rank(a.variant) - rank(b.variant));
}
