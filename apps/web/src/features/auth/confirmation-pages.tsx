import { MailCheck, Send } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { StatusPanel } from './status-panel';

export function SuccessfullyVerifiedPage() {
  const { t } = useTranslation();
  return (
    <StatusPanel icon={MailCheck} title={t('confirm.verified_title')} body={t('confirm.verified_body')}>
      <Button asChild size="lg">
        <Link to="/sign-in">{t('auth.sign_in')}</Link>
      </Button>
    </StatusPanel>
  );
}

export function SuccessfullySendPage() {
  const { t } = useTranslation();
  return (
    <StatusPanel icon={Send} title={t('confirm.sent_title')} body={t('confirm.sent_body')}>
      <Button asChild size="lg" variant="secondary">
        <Link to="/">{t('confirm.back_home')}</Link>
      </Button>
    </StatusPanel>
  );
}
