import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './ui/button';

function BootError() {
  const { t } = useTranslation();
  return (
    <main className="grid min-h-dvh place-items-center px-6">
      <div role="alert" className="flex max-w-md flex-col items-center gap-4 text-center">
        <h1 className="font-display text-2xl font-semibold">{t('popup_error.title')}</h1>
        <p className="text-sm leading-relaxed text-muted">{t('boot_error.body')}</p>
        <Button onClick={() => window.location.reload()}>{t('route_error.reload')}</Button>
      </div>
    </main>
  );
}

/** Catches what happens outside the router, chiefly an instance config that could not be loaded. */
export class BootErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <BootError /> : this.props.children;
  }
}
