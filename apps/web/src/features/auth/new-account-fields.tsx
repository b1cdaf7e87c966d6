import { useTranslation } from 'react-i18next';
import { InputField } from '../../components/ui/field';

type Bound = { value: string; onChange: (event: { target: { value: string } }) => void; error?: string };

/** Name, e-mail and a confirmed new password: the fields of every form that creates an account. */
export function NewAccountFields({
  field,
  autoFocus = false,
}: {
  field: (name: 'name' | 'email' | 'password' | 'password_confirmation') => Bound;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <InputField label={t('fields.name')} autoComplete="name" autoFocus={autoFocus} {...field('name')} />
      <InputField label={t('fields.email')} type="email" autoComplete="email" {...field('email')} />
      <InputField
        label={t('fields.password')}
        type="password"
        autoComplete="new-password"
        hint={t('auth.password_hint')}
        {...field('password')}
      />
      <InputField
        label={t('fields.password_confirmation')}
        type="password"
        autoComplete="new-password"
        {...field('password_confirmation')}
      />
    </>
  );
}
