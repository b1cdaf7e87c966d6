import { useTranslation } from 'react-i18next';
import { Spinner } from './ui/spinner';

export function PageLoader() {
  const { t } = useTranslation();
  return (
    <div className="grid min-h-[50vh] flex-1 place-items-center text-accent">
      <Spinner className="size-7" label={t('common.loading')} />
    </div>
  );
}
