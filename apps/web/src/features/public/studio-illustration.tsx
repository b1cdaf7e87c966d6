import { FileBox, Film, Image as ImageIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** The hero picture: a model on a turntable, with the files the studio made from it. */
export function StudioIllustration() {
  const { t } = useTranslation();
  const outputs = [
    { icon: FileBox, name: 'gearbox-housing.step', meta: t('home.illustration.source') },
    { icon: ImageIcon, name: 'gearbox-housing-front.png', meta: t('home.illustration.still') },
    { icon: Film, name: 'gearbox-housing-turntable.mp4', meta: t('home.illustration.turntable') },
  ];
  return (
    <div className="relative">
      <div
        aria-hidden
        className="absolute -inset-6 -z-10 rounded-[2.5rem] bg-accent-soft/60 blur-2xl dark:bg-accent-soft/30"
      />
      <div className="overflow-hidden rounded-3xl border border-line bg-surface shadow-lift">
        <div className="flex items-center gap-1.5 border-b border-line px-4 py-3">
          <span className="size-2.5 rounded-full bg-line" />
          <span className="size-2.5 rounded-full bg-line" />
          <span className="size-2.5 rounded-full bg-line" />
          <span className="ml-3 truncate text-xs text-muted">{t('home.illustration.window')}</span>
        </div>
        <div className="flex flex-col gap-3 p-4">
          <div className="relative overflow-hidden rounded-2xl bg-surface-2">
            <svg
              viewBox="0 0 400 220"
              className="block w-full"
              role="img"
              aria-label={t('home.illustration.render_alt')}
            >
              <defs>
                <radialGradient id="studio-light" cx="50%" cy="20%" r="80%">
                  <stop offset="0%" stopColor="var(--surface)" />
                  <stop offset="100%" stopColor="var(--surface-2)" />
                </radialGradient>
              </defs>
              <rect width="400" height="220" fill="url(#studio-light)" />
              <ellipse cx="200" cy="178" rx="130" ry="26" fill="var(--line)" />
              <ellipse cx="200" cy="171" rx="130" ry="26" fill="var(--surface)" stroke="var(--line)" />
              <ellipse cx="200" cy="166" rx="70" ry="11" fill="var(--ink)" opacity="0.08" />
              <path d="M136 104 200 72l64 32v50l-64 32-64-32z" fill="var(--accent-strong)" />
              <path d="M136 104 200 136v50l-64-32z" fill="var(--accent)" />
              <path d="M200 136 264 104v50l-64 32z" fill="var(--accent-strong)" />
              <path d="M136 104 200 72l64 32-64 32z" fill="var(--accent)" opacity="0.85" />
              <ellipse cx="200" cy="104" rx="21" ry="10.5" fill="var(--surface)" opacity="0.9" />
              <path
                d="M230 120v22M246 112v22"
                stroke="var(--on-accent)"
                strokeOpacity="0.35"
                strokeWidth="3"
                strokeLinecap="round"
              />
              <path
                d="M58 196c40 20 244 20 284 0"
                fill="none"
                stroke="var(--muted)"
                strokeWidth="1.5"
                strokeDasharray="3 6"
              />
              <path
                d="m334 191 9 5-10 5"
                fill="none"
                stroke="var(--muted)"
                strokeWidth="1.5"
                strokeLinecap="round"
              />
            </svg>
            <div className="absolute top-3 left-3 w-44 rounded-xl bg-studio/90 px-3 py-2 text-[11px] text-on-studio shadow-soft backdrop-blur">
              <span className="mb-1.5 flex justify-between">
                <span>{t('home.illustration.rendering')}</span>
                <span>72%</span>
              </span>
              <span className="block h-1.5 overflow-hidden rounded-full bg-on-studio/20">
                <span className="block h-full w-[72%] rounded-full bg-accent" />
              </span>
            </div>
          </div>
          <ul className="flex flex-col gap-2">
            {outputs.map(({ icon: Icon, name, meta }) => (
              <li
                key={name}
                className="flex min-w-0 items-center gap-3 rounded-xl border border-line bg-paper/60 px-2.5 py-2"
              >
                <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-accent-soft text-accent">
                  <Icon className="size-4" aria-hidden />
                </span>
                <span className="min-w-0 flex-1 truncate text-xs font-medium">{name}</span>
                <span className="shrink-0 text-[11px] text-muted">{meta}</span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}
