import { CreateLanguageBody, SOURCE_LOCALE } from '@atelier/contracts';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { askConfirm, pushToast } from '../../../components/overlays/overlay-store';
import { useGenericError } from '../../../components/overlays/use-generic-error';
import { Button } from '../../../components/ui/button';
import { InputField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { ApiError } from '../../../lib/api-client';
import { switchLanguage } from '../../../lib/i18n';
import { localeFor } from '../../../lib/pick-locale';
import { bindField, useApiForm, validateWith } from '../../../lib/use-api-form';
import { configQuery, userQuery } from '../../session/session-queries';
import { AdminHeader, LoadState } from '../users/admin-header';
import { LanguageList } from './language-list';
import {
  createLanguage,
  fetchLanguages,
  languageKeys,
  makeDefaultLanguage,
  removeLanguage,
  type Language,
} from './languages-api';
import { StringEditor } from './string-editor';

/** Refetches this page's list and the config, whose languages the language pickers offer. */
const refreshLanguages = (client: QueryClient) =>
  Promise.all([
    client.invalidateQueries({ queryKey: languageKeys.all, exact: true }),
    client.invalidateQueries({ queryKey: configQuery.queryKey }),
  ]);

/** /admin/language: the languages with their progress, and the chosen one's strings. */
export function LanguagePage() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const showGenericError = useGenericError();
  const [params, setParams] = useSearchParams();
  const [adding, setAdding] = useState(false);
  const languages = useQuery({ queryKey: languageKeys.all, queryFn: fetchLanguages });

  const list = languages.data ?? [];
  // The address names the language being edited, so a reload keeps it; English otherwise.
  const selected =
    list.find((language) => language.locale === params.get('locale')) ??
    list.find((language) => language.locale === SOURCE_LOCALE);
  const select = (locale: string) => setParams({ locale }, { replace: true });

  async function makeDefault(language: Language) {
    try {
      await makeDefaultLanguage(language.locale);
      await refreshLanguages(client);
      // This tab follows at once, as the next load would: only an admin without a language of their
      // own (and whose browser's language the instance lacks) sees the new default.
      const config = await client.fetchQuery(configQuery);
      const user = client.getQueryData(userQuery.queryKey);
      await switchLanguage(
        i18n,
        localeFor(config, user?.data.relationships.settings.data.attributes.locale ?? null),
      );
      pushToast('success', t('admin_language.default_set', { name: language.name }));
    } catch {
      showGenericError();
    }
  }

  async function remove(language: Language) {
    const confirmed = await askConfirm({
      title: t('admin_language.remove_title', { name: language.name }),
      message: t('admin_language.remove_message'),
      confirmLabel: t('admin_language.remove'),
      danger: true,
    });
    if (!confirmed) return;
    try {
      await removeLanguage(language.locale);
      client.removeQueries({ queryKey: languageKeys.strings(language.locale) });
      await refreshLanguages(client);
      select(SOURCE_LOCALE);
      pushToast('success', t('admin_language.removed', { name: language.name }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 422)
        pushToast('danger', t(error.fieldError('locale') ?? error.message));
      else showGenericError();
    }
  }

  return (
    <section className="flex flex-col gap-6">
      <AdminHeader title={t('pages.admin_language')} lead={t('admin_language.lead')} />
      {languages.isPending || languages.isError || !selected ? (
        <LoadState failed={languages.isError} />
      ) : (
        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
          <div className="lg:sticky lg:top-6">
            <LanguageList
              languages={list}
              selected={selected.locale}
              onSelect={select}
              onAdd={() => setAdding(true)}
              onMakeDefault={makeDefault}
              onRemove={remove}
            />
          </div>
          <StringEditor key={selected.locale} language={selected} />
        </div>
      )}
      <AddLanguageDialog
        open={adding}
        onOpenChange={setAdding}
        onAdded={(language) => {
          setAdding(false);
          select(language.locale);
          pushToast('success', t('admin_language.added', { name: language.name }));
        }}
      />
    </section>
  );
}

function AddLanguageDialog({
  open,
  onOpenChange,
  onAdded,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAdded: (language: Language) => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [values, setValues] = useState({ locale: '', name: '' });
  const { submitting, fieldErrors, onSubmit } = useApiForm(
    () => createLanguage(validateWith(CreateLanguageBody, values)),
    async (language) => {
      await refreshLanguages(client);
      setValues({ locale: '', name: '' });
      onAdded(language);
    },
  );
  const field = bindField(values, setValues, fieldErrors);

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t('admin_language.add_title')}
      description={t('admin_language.add_lead')}
    >
      <form className="mt-5 flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        <InputField
          label={t('admin_language.locale')}
          hint={t('admin_language.locale_hint')}
          autoComplete="off"
          spellCheck={false}
          {...field('locale')}
        />
        <InputField
          label={t('admin_language.name')}
          placeholder={t('admin_language.name_placeholder')}
          autoComplete="off"
          {...field('name')}
        />
        <div className="mt-2 flex justify-end gap-2">
          <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" loading={submitting}>
            {t('admin_language.add')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
