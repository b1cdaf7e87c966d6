import { SOURCE_LOCALE } from '@atelier/contracts/constants';
import { Check, Plus, Star, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import type { Language } from './languages-api';

interface LanguageListProps {
  languages: Language[];
  selected: string;
  onSelect: (locale: string) => void;
  onAdd: () => void;
  onMakeDefault: (language: Language) => void;
  onRemove: (language: Language) => void;
}

/** The languages with their progress; the chosen one's strings open beside (or below) the list. */
export function LanguageList({
  languages,
  selected,
  onSelect,
  onAdd,
  onMakeDefault,
  onRemove,
}: LanguageListProps) {
  const { t, i18n } = useTranslation();
  const percent = (language: Language) =>
    language.total === 0 ? 0 : Math.floor((language.translated / language.total) * 100);

  return (
    <Card className="flex flex-col gap-1 p-2">
      <div className="flex items-center justify-between gap-2 px-3 pt-2 pb-3">
        <h2 className="text-sm font-semibold">{t('admin_language.languages')}</h2>
        <Button size="sm" variant="secondary" onClick={onAdd}>
          <Plus className="size-4" aria-hidden />
          {t('admin_language.add')}
        </Button>
      </div>
      <ul className="flex flex-col gap-1" aria-label={t('admin_language.languages')}>
        {languages.map((language) => {
          const active = language.locale === selected;
          const source = language.locale === SOURCE_LOCALE;
          const progress = t('admin_language.progress', {
            translated: language.translated.toLocaleString(i18n.language),
            total: language.total.toLocaleString(i18n.language),
          });
          return (
            <li key={language.locale}>
              <div
                className={cn(
                  'flex flex-col gap-3 rounded-xl border px-3 py-3 transition-colors',
                  active ? 'border-accent/40 bg-accent-soft/60' : 'border-transparent hover:bg-surface-2',
                )}
              >
                <button
                  type="button"
                  onClick={() => onSelect(language.locale)}
                  aria-current={active ? 'true' : undefined}
                  className="flex cursor-pointer flex-col gap-2 text-left"
                  data-testid={`language-${language.locale}`}
                >
                  <span className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{language.name}</span>
                    <span className="rounded-md bg-surface-2 px-1.5 py-0.5 font-mono text-xs text-muted">
                      {language.locale}
                    </span>
                    {language.is_default && (
                      <span className="inline-flex items-center gap-1 rounded-full bg-success-soft px-2 py-0.5 text-xs font-medium text-success">
                        <Check className="size-3" aria-hidden />
                        {t('admin_language.default_badge')}
                      </span>
                    )}
                    {source && (
                      <span className="rounded-full bg-surface-2 px-2 py-0.5 text-xs font-medium text-muted">
                        {t('admin_language.source_badge')}
                      </span>
                    )}
                  </span>
                  <span
                    className="h-1.5 overflow-hidden rounded-full bg-line"
                    role="progressbar"
                    aria-valuemin={0}
                    aria-valuemax={language.total}
                    aria-valuenow={language.translated}
                    aria-label={progress}
                  >
                    <span
                      className="block h-full rounded-full bg-accent transition-[width]"
                      style={{ width: `${percent(language)}%` }}
                    />
                  </span>
                  <span className="flex justify-between text-xs text-muted tabular-nums">
                    <span>{progress}</span>
                    <span>{percent(language)} %</span>
                  </span>
                </button>
                {active && (!language.is_default || !source) && (
                  <div className="flex flex-wrap gap-2">
                    {!language.is_default && (
                      <Button size="sm" variant="secondary" onClick={() => onMakeDefault(language)}>
                        <Star className="size-3.5" aria-hidden />
                        {t('admin_language.make_default')}
                      </Button>
                    )}
                    {!source && !language.is_default && (
                      <Button
                        size="sm"
                        variant="ghost"
                        className="text-danger hover:bg-danger-soft"
                        onClick={() => onRemove(language)}
                      >
                        <Trash2 className="size-3.5" aria-hidden />
                        {t('admin_language.remove')}
                      </Button>
                    )}
                  </div>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
