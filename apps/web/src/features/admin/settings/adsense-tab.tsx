import { ADSENSE_SLOTS, type AdminSettings, type AdsenseSlots } from '@atelier/contracts';
import { Megaphone } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { InputField } from '../../../components/ui/field';
import { SettingsForm, SettingsLoader, SettingsSection, useSettingsForm } from './settings-parts';

/** /admin/settings/adsense: the ad network's publisher id and slots, stored and exposed in the config only. */
export function AdsenseTab() {
  return <SettingsLoader group="adsense">{(settings) => <AdsenseForm settings={settings} />}</SettingsLoader>;
}

function AdsenseForm({ settings }: { settings: AdminSettings }) {
  const { t } = useTranslation();
  const slots = settings.adsense_slots as AdsenseSlots;
  const { draft, set, submitting, fieldErrors, formError, onSubmit } = useSettingsForm(
    'adsense',
    {
      client: (settings.adsense_client_id as string | null) ?? '',
      slots: Object.fromEntries(ADSENSE_SLOTS.map((slot) => [slot, slots[slot] ?? ''])) as Record<
        keyof AdsenseSlots,
        string
      >,
    },
    (d) => ({
      adsense_client_id: d.client.trim() || null,
      adsense_slots: Object.fromEntries(ADSENSE_SLOTS.map((slot) => [slot, d.slots[slot].trim() || null])),
    }),
  );
  return (
    <SettingsForm onSubmit={onSubmit} submitting={submitting} formError={formError}>
      <SettingsSection
        title={t('admin_settings.adsense.title')}
        lead={t('admin_settings.adsense.lead')}
        icon={<Megaphone className="size-5" aria-hidden />}
      >
        <InputField
          label={t('admin_settings.adsense.client_id')}
          placeholder="ca-pub-1234567890123456"
          hint={t('admin_settings.adsense.client_hint')}
          value={draft.client}
          onChange={(event) => set('client', event.target.value)}
          error={fieldErrors.adsense_client_id}
        />
        <div className="grid gap-5 sm:grid-cols-3">
          {ADSENSE_SLOTS.map((slot) => (
            <InputField
              key={slot}
              label={t(`admin_settings.adsense.slot_${slot}`)}
              inputMode="numeric"
              placeholder="1234567890"
              value={draft.slots[slot]}
              onChange={(event) => set('slots', { ...draft.slots, [slot]: event.target.value })}
              error={fieldErrors[`adsense_slots.${slot}`]}
            />
          ))}
        </div>
      </SettingsSection>
    </SettingsForm>
  );
}
