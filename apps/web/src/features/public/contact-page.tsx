import { ContactBody } from '@atelier/contracts';
import { Mail } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { InputField, TextareaField } from '../../components/ui/field';
import { api } from '../../lib/api-client';
import { useApiForm, validateWith } from '../../lib/use-api-form';
import { useConfig } from '../session/session-queries';

export function ContactPage() {
  const { t } = useTranslation();
  const config = useConfig();
  const navigate = useNavigate();
  const [values, setValues] = useState({ email: '', message: '' });
  const form = useApiForm(
    () => api.post('/api/contact', validateWith(ContactBody, values)),
    () => navigate('/successfully-send'),
  );

  return (
    <section className="mx-auto grid max-w-6xl gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[1fr_1.1fr]">
      <div className="flex flex-col gap-5">
        <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">
          {t('contact.eyebrow')}
        </p>
        <h1 className="font-display text-4xl font-semibold tracking-tight sm:text-5xl">
          {t('contact.title')}
        </h1>
        <p className="max-w-md text-lg leading-relaxed text-muted">{t('contact.lead')}</p>
        {config.app.contactEmail && (
          <a
            href={`mailto:${config.app.contactEmail}`}
            className="flex w-fit items-center gap-2 text-sm font-medium text-ink underline-offset-4 hover:underline"
          >
            <Mail className="size-4 text-accent" aria-hidden />
            {config.app.contactEmail}
          </a>
        )}
      </div>
      <Card className="p-6 sm:p-8">
        <form className="flex flex-col gap-5" onSubmit={form.onSubmit} noValidate>
          <InputField
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            value={values.email}
            onChange={(event) => setValues({ ...values, email: event.target.value })}
            error={form.fieldErrors.email}
          />
          <TextareaField
            label={t('contact.message')}
            value={values.message}
            onChange={(event) => setValues({ ...values, message: event.target.value })}
            error={form.fieldErrors.message}
            rows={6}
          />
          {form.formError && (
            <p role="alert" className="text-sm text-danger">
              {form.formError}
            </p>
          )}
          <Button type="submit" size="lg" loading={form.submitting}>
            {t('contact.send')}
          </Button>
        </form>
      </Card>
    </section>
  );
}
