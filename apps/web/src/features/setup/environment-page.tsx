import { EnvironmentSetupBody, S3_REGIONS } from '@atelier/contracts';
import { Cloud, FileText, HardDrive, Mail, Radio, RadioTower } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { ChoiceCards } from '../../components/ui/choice-cards';
import { InputField } from '../../components/ui/field';
import { Suggestions } from '../../components/ui/suggestions';
import { SwitchField } from '../../components/ui/switch';
import { api } from '../../lib/api-client';
import { useApiForm, validateWith } from '../../lib/use-api-form';
import { FormError } from '../auth/auth-heading';
import { StepActions, StepHeader } from './step-header';
import { wizardPath } from './wizard-steps';

function Section({ title, error, children }: { title: string; error?: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-4 border-t border-line pt-6 first:border-t-0 first:pt-0">
      <h2 className="text-base font-semibold">{title}</h2>
      {children}
      <FormError message={error ?? null} />
    </section>
  );
}

/** Storage, mail and broadcasting; the server tests each connection before it answers. */
export function EnvironmentPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [storageDriver, setStorageDriver] = useState<'local' | 's3'>('local');
  const [s3, setS3] = useState({
    endpoint: '',
    region: 'us-east-1',
    bucket: '',
    accessKeyId: '',
    secretAccessKey: '',
  });
  const [forcePathStyle, setForcePathStyle] = useState(true);
  const [mailDriver, setMailDriver] = useState<'log' | 'smtp'>('log');
  const [smtp, setSmtp] = useState({ url: '', from: '' });
  const [broadcasting, setBroadcasting] = useState<'socket.io' | 'null'>('socket.io');

  const body = () => ({
    storage:
      storageDriver === 'local'
        ? { driver: 'local' }
        : { driver: 's3', ...s3, endpoint: s3.endpoint.trim() || undefined, forcePathStyle },
    mail:
      mailDriver === 'log'
        ? { driver: 'log' }
        : { driver: 'smtp', url: smtp.url, from: smtp.from.trim() || undefined },
    broadcasting: { driver: broadcasting },
  });
  const form = useApiForm(
    () => api.post('/api/setup/environment-setup', validateWith(EnvironmentSetupBody, body())),
    () => navigate(wizardPath('app-setup')),
  );
  const errors = form.fieldErrors;
  const s3Field = (name: keyof typeof s3) => ({
    value: s3[name],
    onChange: (event: { target: { value: string } }) => setS3({ ...s3, [name]: event.target.value }),
    error: errors[`storage.${name}`],
  });

  return (
    <form onSubmit={form.onSubmit} noValidate>
      <StepHeader title={t('setup.environment.title')} lead={t('setup.environment.lead')} />
      <div className="flex flex-col gap-6">
        <Section title={t('setup.environment.storage')} error={errors.storage}>
          <ChoiceCards
            label={t('setup.environment.storage_driver')}
            value={storageDriver}
            onChange={setStorageDriver}
            choices={[
              {
                value: 'local',
                title: t('setup.environment.local'),
                description: t('setup.environment.local_hint'),
                icon: <HardDrive className="size-5" />,
              },
              {
                value: 's3',
                title: t('setup.environment.s3'),
                description: t('setup.environment.s3_hint'),
                icon: <Cloud className="size-5" />,
              },
            ]}
          />
          {storageDriver === 's3' && (
            <div className="grid gap-4 sm:grid-cols-2">
              <InputField
                label={t('setup.environment.s3_endpoint')}
                placeholder="https://"
                className="sm:col-span-2"
                {...s3Field('endpoint')}
              />
              <InputField
                label={t('setup.environment.s3_region')}
                list="s3-regions"
                autoCapitalize="off"
                {...s3Field('region')}
              />
              <Suggestions id="s3-regions" values={S3_REGIONS} />
              <InputField label={t('setup.environment.s3_bucket')} {...s3Field('bucket')} />
              <InputField
                label={t('setup.environment.s3_key')}
                autoComplete="off"
                {...s3Field('accessKeyId')}
              />
              <InputField
                label={t('setup.environment.s3_secret')}
                type="password"
                autoComplete="off"
                {...s3Field('secretAccessKey')}
              />
              <SwitchField
                label={t('setup.environment.s3_path_style')}
                description={t('setup.environment.s3_path_style_hint')}
                checked={forcePathStyle}
                onCheckedChange={setForcePathStyle}
              />
            </div>
          )}
        </Section>

        <Section title={t('setup.environment.mail')} error={errors.mail}>
          <ChoiceCards
            label={t('setup.environment.mail_driver')}
            value={mailDriver}
            onChange={setMailDriver}
            choices={[
              {
                value: 'log',
                title: t('setup.environment.mail_log'),
                description: t('setup.environment.mail_log_hint'),
                icon: <FileText className="size-5" />,
              },
              {
                value: 'smtp',
                title: t('setup.environment.smtp'),
                description: t('setup.environment.smtp_hint'),
                icon: <Mail className="size-5" />,
              },
            ]}
          />
          {mailDriver === 'smtp' && (
            <div className="grid gap-4 sm:grid-cols-2">
              <InputField
                label={t('setup.environment.smtp_url')}
                placeholder="smtp://user:password@mail.example.com:587"
                autoComplete="off"
                value={smtp.url}
                onChange={(event) => setSmtp({ ...smtp, url: event.target.value })}
                error={errors['mail.url']}
              />
              <InputField
                label={t('setup.environment.smtp_from')}
                type="email"
                value={smtp.from}
                onChange={(event) => setSmtp({ ...smtp, from: event.target.value })}
                error={errors['mail.from']}
              />
            </div>
          )}
        </Section>

        <Section
          title={t('setup.environment.broadcasting')}
          error={errors.broadcasting ?? errors['broadcasting.driver']}
        >
          <ChoiceCards
            label={t('setup.environment.broadcasting_driver')}
            value={broadcasting}
            onChange={setBroadcasting}
            choices={[
              {
                value: 'socket.io',
                title: t('setup.environment.socketio'),
                description: t('setup.environment.socketio_hint'),
                icon: <RadioTower className="size-5" />,
              },
              {
                value: 'null',
                title: t('setup.environment.no_broadcasting'),
                description: t('setup.environment.no_broadcasting_hint'),
                icon: <Radio className="size-5" />,
              },
            ]}
          />
        </Section>
      </div>
      <div className="mt-5">
        <FormError message={form.formError} />
      </div>
      <StepActions>
        <Button type="submit" loading={form.submitting}>
          {t('setup.environment.submit')}
        </Button>
      </StepActions>
    </form>
  );
}
