import { DatabaseSetupBody } from '@atelier/contracts';
import { Database, HardDrive } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { ChoiceCards } from '../../components/ui/choice-cards';
import { InputField } from '../../components/ui/field';
import { api } from '../../lib/api-client';
import { bindField, useApiForm, validateWith } from '../../lib/use-api-form';
import { FormError } from '../auth/auth-heading';
import { StepActions, StepHeader } from './step-header';
import { wizardPath } from './wizard-steps';

type Connection = 'sqlite' | 'pgsql';

export function DatabasePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [connection, setConnection] = useState<Connection>('sqlite');
  const [pg, setPg] = useState({ host: '127.0.0.1', port: '5432', database: '', username: '', password: '' });
  const form = useApiForm(
    () =>
      api.post(
        '/api/setup/database',
        validateWith(DatabaseSetupBody, connection === 'sqlite' ? { connection } : { connection, ...pg }),
      ),
    () => navigate(wizardPath('environment')),
  );
  const field = bindField(pg, setPg, form.fieldErrors);

  return (
    <form onSubmit={form.onSubmit} noValidate>
      <StepHeader title={t('setup.database.title')} lead={t('setup.database.lead')} />
      <ChoiceCards
        label={t('setup.database.connection')}
        value={connection}
        onChange={setConnection}
        choices={[
          {
            value: 'sqlite',
            title: t('setup.database.sqlite'),
            description: t('setup.database.sqlite_hint'),
            icon: <HardDrive className="size-5" />,
          },
          {
            value: 'pgsql',
            title: t('setup.database.pgsql'),
            description: t('setup.database.pgsql_hint'),
            icon: <Database className="size-5" />,
          },
        ]}
      />
      {connection === 'pgsql' && (
        <div className="mt-6 grid gap-4 sm:grid-cols-[1fr_8rem]">
          <InputField label={t('setup.database.host')} autoComplete="off" {...field('host')} />
          <InputField label={t('setup.database.port')} inputMode="numeric" {...field('port')} />
          <InputField
            label={t('setup.database.name')}
            autoComplete="off"
            className="sm:col-span-2"
            {...field('database')}
          />
          <InputField label={t('setup.database.username')} autoComplete="off" {...field('username')} />
          <InputField
            label={t('setup.database.password')}
            type="password"
            autoComplete="off"
            {...field('password')}
          />
        </div>
      )}
      <div className="mt-5">
        <FormError message={form.fieldErrors.connection ?? form.formError} />
      </div>
      <StepActions>
        <Button type="submit" loading={form.submitting}>
          {t('setup.database.submit')}
        </Button>
      </StepActions>
    </form>
  );
}
