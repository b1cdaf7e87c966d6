import { AccentColor, accentPalette, accentVariables, type AccentTones } from '@atelier/contracts';
import { Link2, Paintbrush, Sparkles } from 'lucide-react';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { InputField } from '../../../components/ui/field';
import { Logo } from '../../../components/ui/logo';
import { cn } from '../../../lib/cn';
import { SettingsSection } from './settings-parts';

/** What the colour picker shows while no accent is set: index.css's clay. */
const BUILT_IN = '#c35636';
const THEMES = ['light', 'dark'] as const;

/**
 * The accent colour: picked or typed, with what each theme makes of it (moved where text would not
 * read, and by how much it contrasts) and a live preview of both themes with the draft name.
 */
export function AccentSection({
  name,
  value,
  onChange,
  error,
}: {
  name: string;
  /** `#rrggbb`, or empty for the built-in colour. */
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const parsed = AccentColor.safeParse(value);
  const palette = parsed.success ? accentPalette(parsed.data) : null;
  const typedWrong = value.trim() !== '' && !parsed.success;
  return (
    <SettingsSection
      title={t('admin_settings.appearance.accent_title')}
      lead={t('admin_settings.appearance.accent_lead')}
      icon={<Paintbrush className="size-5" aria-hidden />}
    >
      <div className="flex flex-wrap items-end gap-3">
        <input
          type="color"
          value={palette ? parsed.data : BUILT_IN}
          onChange={(event) => onChange(event.target.value)}
          aria-label={t('admin_settings.appearance.accent_pick')}
          className="h-11 w-14 shrink-0 cursor-pointer rounded-xl border border-line bg-surface p-1"
        />
        <InputField
          label={t('admin_settings.appearance.accent')}
          value={value}
          placeholder={BUILT_IN}
          maxLength={7}
          spellCheck={false}
          autoComplete="off"
          className="w-40 [&_input]:font-mono"
          onChange={(event) => onChange(event.target.value)}
          error={error ?? (typedWrong ? t('validation.accent_color') : undefined)}
        />
        {value && (
          <Button type="button" variant="ghost" onClick={() => onChange('')}>
            {t('admin_settings.appearance.accent_reset')}
          </Button>
        )}
      </div>
      <p className="text-sm text-muted">{t('admin_settings.appearance.accent_hint')}</p>
      <div className="grid gap-4 lg:grid-cols-2">
        {THEMES.map((theme) => (
          <ThemePreview key={theme} theme={theme} name={name} tones={palette?.[theme] ?? null} />
        ))}
      </div>
    </SettingsSection>
  );
}

/** One theme as visitors will see it, and what the accent became in it. */
function ThemePreview({
  theme,
  name,
  tones,
}: {
  theme: (typeof THEMES)[number];
  name: string;
  tones: AccentTones | null;
}) {
  const { t } = useTranslation();
  const ratio = tones && tones.contrast.toFixed(1);
  return (
    <figure className="flex min-w-0 flex-col gap-2" data-testid={`accent-preview-${theme}`}>
      <figcaption className="flex flex-col text-sm">
        <span className="font-medium">{t(`admin_settings.appearance.accent_theme_${theme}`)}</span>
        <span className={cn('text-muted', tones?.adjusted && 'text-ink')}>
          {tones
            ? t(
                tones.adjusted
                  ? 'admin_settings.appearance.accent_adjusted'
                  : 'admin_settings.appearance.accent_as_picked',
                { color: tones.accent, ratio },
              )
            : t('admin_settings.appearance.accent_built_in')}
        </span>
      </figcaption>
      <div
        className={cn(theme, 'overflow-hidden rounded-xl border border-line bg-paper text-ink shadow-soft')}
        style={tones ? (accentVariables(tones) as CSSProperties) : undefined}
      >
        <div className="flex items-center gap-3 border-b border-line bg-surface px-4 py-3">
          <Logo name={name || '…'} theme={theme} className="min-w-0 [&_span]:text-base" />
          <span className="ml-auto shrink-0 rounded-lg bg-accent px-3 py-1.5 text-xs font-semibold text-on-accent">
            {t('auth.sign_in')}
          </span>
        </div>
        <div className="flex flex-col gap-3 p-4">
          <span className="flex w-fit items-center gap-1.5 rounded-full bg-accent-soft px-2.5 py-1 text-xs font-medium text-accent">
            <Sparkles className="size-3.5" aria-hidden />
            {t('admin_settings.appearance.preview_badge')}
          </span>
          <p className="text-sm leading-relaxed text-muted">
            {t('admin_settings.appearance.preview_text', { name: name || '…' })}{' '}
            <span className="inline-flex items-center gap-1 font-medium text-accent underline underline-offset-2">
              <Link2 className="size-3.5" aria-hidden />
              {t('admin_settings.appearance.preview_link')}
            </span>
          </p>
        </div>
      </div>
    </figure>
  );
}
