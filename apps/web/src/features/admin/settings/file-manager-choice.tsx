import { useTranslation } from 'react-i18next';
import { ChoiceCards } from '../../../components/ui/choice-cards';
import { InputField } from '../../../components/ui/field';

type Offer = 'studio-only' | 'everything';

interface FileManagerChoiceProps {
  /** The cutoff day, YYYY-MM-DD (settings `file_manager_cutoff`). */
  cutoff: string;
  /** Whether every account gets the file manager (settings `file_manager_for_all`). */
  forAll: boolean;
  onCutoffChange: (cutoff: string) => void;
  onForAllChange: (forAll: boolean) => void;
  cutoffError?: string;
}

/**
 * What accounts created from the cutoff day on get, asked in the setup wizard and the admin settings:
 * the studio only (the description's rule) or the studio and the file manager. The effect is said in
 * plain words under the choice.
 */
export function FileManagerChoice({
  cutoff,
  forAll,
  onCutoffChange,
  onForAllChange,
  cutoffError,
}: FileManagerChoiceProps) {
  const { t, i18n } = useTranslation();
  const day = readableDay(cutoff, i18n.language);
  return (
    <div className="flex flex-col gap-4">
      <InputField
        label={t('file_manager_choice.cutoff')}
        type="date"
        required
        className="sm:max-w-xs"
        hint={t('file_manager_choice.cutoff_hint')}
        value={cutoff}
        onChange={(event) => onCutoffChange(event.target.value)}
        error={cutoffError}
      />
      <ChoiceCards<Offer>
        label={t('file_manager_choice.legend', { date: day })}
        value={forAll ? 'everything' : 'studio-only'}
        onChange={(offer) => onForAllChange(offer === 'everything')}
        choices={[
          {
            value: 'studio-only',
            title: t('file_manager_choice.studio_only'),
            description: t('file_manager_choice.studio_only_hint'),
          },
          {
            value: 'everything',
            title: t('file_manager_choice.everything'),
            description: t('file_manager_choice.everything_hint'),
          },
        ]}
      />
      <p className="rounded-xl bg-surface-2 px-3.5 py-2.5 text-sm text-muted" aria-live="polite">
        {forAll
          ? t('file_manager_choice.effect_everything')
          : t('file_manager_choice.effect_studio_only', { date: day })}
      </p>
    </div>
  );
}

/** The day in the reader's language ("19 March 2024"), or as typed while it is not a whole date. */
function readableDay(day: string, locale: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(date.getTime())) return day;
  return date.toLocaleDateString(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}
