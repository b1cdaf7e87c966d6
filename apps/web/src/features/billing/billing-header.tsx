import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The heading of the account's billing screens, as the profile's: the area, the title, a lead. */
export function BillingHeader({
  title,
  lead,
  children,
}: {
  title: string;
  lead: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <header className="flex flex-wrap items-end justify-between gap-4">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">
          {t('billing_ui.area')}
        </p>
        <h1 className="font-display text-3xl font-semibold tracking-tight sm:text-4xl">{title}</h1>
        <p className="max-w-2xl text-sm text-muted">{lead}</p>
      </div>
      {children && <div className="flex flex-wrap items-center gap-2">{children}</div>}
    </header>
  );
}
