import { AuthenticateShareBody } from '@atelier/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { LockKeyhole } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { InputField } from '../../components/ui/field';
import { ApiError } from '../../lib/api-client';
import { validateWith } from '../../lib/use-api-form';
import { sharePagePath, useShareVisit } from './share-layout';
import { isLocked, shareDetailQuery, visitApi } from './sharing-api';

/** The refusal to show under the field: a wrong password, too many of them, or a form mistake. */
function refusalOf(error: ApiError, t: (key: string) => string): string {
  if (error.status === 401) return t('sharing.password_incorrect');
  // 429: the server's message says how many seconds to wait.
  if (error.status === 429) return error.fieldError('password') ?? error.message;
  return t(error.fieldError('password') ?? error.message);
}

/** /share/{token}/authenticate: the password gate of a protected share. */
export function ShareAuthenticatePage() {
  const { t } = useTranslation();
  const { token, share } = useShareVisit();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const showGenericError = useGenericError();
  const [password, setPassword] = useState('');
  const [refusal, setRefusal] = useState<{ message: string; throttled: boolean } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // A product page's visitor goes back to it once the password opened the link (productGatePath).
  const toProduct = useSearchParams()[0].get('next') === 'product';
  const nextPath = (opened: typeof share) =>
    toProduct ? `/share/${token}/product` : sharePagePath(token, opened);

  if (!isLocked(share)) return <Navigate to={nextPath(share)} replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitting(true);
    setRefusal(null);
    try {
      await visitApi.authenticate(token, validateWith(AuthenticateShareBody, { password }).password);
      // The detail names the item now; read it before leaving, so the next page sees the share open.
      const opened = await queryClient.fetchQuery({ ...shareDetailQuery(token), staleTime: 0 });
      navigate(nextPath(opened), { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        setRefusal({ message: refusalOf(error, t), throttled: error.status === 429 });
        setSubmitting(false);
        return;
      }
      showGenericError();
      setSubmitting(false);
    }
  }

  const owner = share.attributes.owner.name;
  return (
    <div className="flex flex-1 items-start justify-center pt-4 sm:items-center sm:pt-0">
      <Card className="w-full max-w-md p-6 sm:p-8">
        <span className="grid size-14 place-items-center rounded-2xl bg-accent-soft text-accent shadow-soft">
          <LockKeyhole className="size-7" aria-hidden />
        </span>
        <h1 className="mt-5 font-display text-2xl font-semibold text-balance">
          {share.attributes.item_type === 'folder'
            ? t('sharing.protected_folder_title')
            : t('sharing.protected_file_title')}
        </h1>
        <p className="mt-2 text-sm leading-relaxed text-muted">
          {t('sharing.protected_lead', { name: owner })}
        </p>
        <form onSubmit={(event) => void submit(event)} className="mt-6 flex flex-col gap-5" noValidate>
          <InputField
            label={t('sharing.password')}
            type="password"
            autoComplete="current-password"
            autoFocus
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={refusal && !refusal.throttled ? refusal.message : undefined}
          />
          {refusal?.throttled && (
            <p role="alert" className="rounded-xl bg-danger-soft px-4 py-3 text-sm text-danger">
              {refusal.message}
            </p>
          )}
          <Button type="submit" size="lg" loading={submitting} disabled={password === ''}>
            {t('sharing.unlock')}
          </Button>
        </form>
      </Card>
    </div>
  );
}
