import { Check } from 'lucide-react';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { ThemeMenu } from '../../components/theme-menu';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Logo } from '../../components/ui/logo';
import { cn } from '../../lib/cn';
import { StatusPanel } from '../auth/status-panel';
import { useConfig } from '../session/session-queries';
import { SetupTokenForm } from './setup-token-form';
import {
  forgetSetupToken,
  keepTokenOfLink,
  readSetupToken,
  saveSetupToken,
  type SetupTokenContext,
} from './setup-token';
import { WIZARD_STEPS } from './wizard-steps';

/**
 * The first-run wizard: the steps on the side (a progress bar on phones), the current step's form.
 * The steps open only with the setup token the server printed; without it the layout asks for it.
 */
export function WizardLayout() {
  const { t } = useTranslation();
  const config = useConfig();
  const { pathname, search } = useLocation();
  // Judged on arrival, so finishing the last step does not flip the page before it moves on.
  const [installedOnArrival] = useState(config.installation === 'installation-done');
  // Read before the first step renders, so its first call already carries a token that came with the link.
  const [setupToken, setSetupToken] = useState(() => keepTokenOfLink(search) ?? readSetupToken());
  const [tokenRejected, setTokenRejected] = useState(false);
  const rejectToken = useCallback(() => {
    forgetSetupToken();
    setSetupToken(undefined);
    setTokenRejected(true);
  }, []);
  const acceptToken = (token: string) => {
    saveSetupToken(token);
    setSetupToken(token);
    setTokenRejected(false);
  };
  const current = Math.max(
    0,
    WIZARD_STEPS.findIndex((step) => pathname.endsWith(`/${step}`)),
  );

  return (
    <div className="min-h-dvh">
      <header className="mx-auto flex max-w-5xl items-center justify-between px-4 py-5 sm:px-6">
        <Logo name={config.app.name} />
        <ThemeMenu />
      </header>
      <main className="mx-auto max-w-5xl px-4 pb-16 sm:px-6">
        {installedOnArrival ? (
          <Card className="mx-auto mt-10 max-w-lg p-8 sm:p-10">
            <StatusPanel title={t('setup.installed_title')} body={t('setup.installed_body')}>
              <Button asChild size="lg">
                <Link to="/sign-in">{t('auth.sign_in')}</Link>
              </Button>
            </StatusPanel>
          </Card>
        ) : (
          <div className="grid gap-6 lg:grid-cols-[15rem_1fr] lg:gap-10">
            <nav aria-label={t('setup.progress')} className="lg:pt-2">
              <div className="flex items-center justify-between text-xs font-medium text-muted lg:hidden">
                <span>{t(`setup.step.${WIZARD_STEPS[current]}`)}</span>
                <span>{t('setup.step_of', { current: current + 1, total: WIZARD_STEPS.length })}</span>
              </div>
              <div className="mt-2 h-1.5 overflow-hidden rounded-full bg-line lg:hidden">
                <div
                  className="h-full rounded-full bg-accent transition-[width]"
                  style={{ width: `${((current + 1) / WIZARD_STEPS.length) * 100}%` }}
                />
              </div>
              <ol className="hidden flex-col gap-1 lg:flex">
                {WIZARD_STEPS.map((step, index) => {
                  const state = index < current ? 'done' : index === current ? 'current' : 'upcoming';
                  return (
                    <li
                      key={step}
                      aria-current={state === 'current' ? 'step' : undefined}
                      className={cn(
                        'flex items-center gap-3 rounded-xl px-3 py-2.5 text-sm',
                        state === 'current' && 'bg-surface font-semibold shadow-soft',
                        state === 'upcoming' && 'text-muted',
                      )}
                    >
                      <span
                        className={cn(
                          'grid size-6 shrink-0 place-items-center rounded-full border text-[11px] font-semibold',
                          state === 'done' && 'border-accent bg-accent text-on-accent',
                          state === 'current' && 'border-accent text-accent',
                          state === 'upcoming' && 'border-line',
                        )}
                      >
                        {state === 'done' ? <Check className="size-3.5" aria-hidden /> : index + 1}
                      </span>
                      {t(`setup.step.${step}`)}
                    </li>
                  );
                })}
              </ol>
            </nav>
            <Card className="p-5 sm:p-8">
              {setupToken ? (
                <Outlet context={{ rejectToken } satisfies SetupTokenContext} />
              ) : (
                <SetupTokenForm rejected={tokenRejected} onToken={acceptToken} />
              )}
            </Card>
          </div>
        )}
      </main>
    </div>
  );
}
