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
      <div aria-hidden className="absolute -inset-6 -z-10 rounded-[2.5rem] bg-accent-soft/70 blur-2xl" />
      <div className="overflow-hidden rounded-3xl border border-line bg-surface shadow-lift">
        <div className="flex items-center gap-1.5 border-b border-line px-4 py-3">
          <span className="size-2.5 rounded-full bg-line" />
          <span className="size-2.5 rounded-full bg-line" />
          <span className="size-2.5 rounded-full bg-line" />
          <span className="ml-3 text-xs text-muted">{t('home.illustration.window')}</span>
        </div>
        <div className="grid gap-4 p-4 sm:grid-cols-[1.25fr_1fr]">
          <svg viewBox="0 0 320 240" className="w-full rounded-2xl bg-surface-2" role="img" aria-label={t('home.illustration.render_alt')}>
            <defs>
              <radialGradient id="studio-light" cx="50%" cy="30%" r="70%">
                <stop offset="0%" stopColor="var(--surface)" />
                <stop offset="100%" stopColor="var(--surface-2)" />
              </radialGradient>
              <linearGradient id="part-top" x1="0" y1="0" x2="1" y2="1">
                <stop offset="0%" stopColor="var(--accent)" stopOpacity="0.95" />
                <stop offset="100%" stopColor="var(--accent-strong)" />
              </linearGradient>
            </defs>
            <rect width="320" height="240" fill="url(#studio-light)" />
            <ellipse cx="160" cy="188" rx="104" ry="24" fill="var(--line)" />
            <ellipse cx="160" cy="182" rx="104" ry="24" fill="var(--surface)" stroke="var(--line)" />
            <path d="M104 120 160 92l56 28v46l-56 28-56-28z" fill="var(--accent-strong)" />
            <path d="M104 120 160 148v46l-56-28z" fill="var(--accent)" />
            <path d="M160 148 216 120v46l-56 28z" fill="var(--accent-strong)" opacity="0.8" />
            <path d="M104 120 160 92l56 28-56 28z" fill="url(#part-top)" />
            <ellipse cx="160" cy="120" rx="18" ry="9" fill="var(--surface)" opacity="0.85" />
            <path d="M60 206c30 16 170 16 200 0" fill="none" stroke="var(--muted)" strokeWidth="1.5" strokeDasharray="3 5" />
            <path d="m254 200 8 5-9 4" fill="none" stroke="var(--muted)" strokeWidth="1.5" strokeLinecap="round" />
          </svg>
          <ul className="flex flex-col gap-2">
            {outputs.map(({ icon: Icon, name, meta }) => (
              <li key={name} className="flex items-center gap-3 rounded-xl border border-line bg-paper/60 p-2.5">
                <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-accent-soft text-accent">
                  <Icon className="size-4" aria-hidden />
                </span>
                <span className="min-w-0">
                  <span className="block truncate text-xs font-medium">{name}</span>
                  <span className="block text-[11px] text-muted">{meta}</span>
                </span>
              </li>
            ))}
            <li className="mt-auto rounded-xl bg-ink px-3 py-2.5 text-[11px] text-paper">
              <span className="mb-1.5 flex justify-between">
                <span>{t('home.illustration.rendering')}</span>
                <span>72%</span>
              </span>
              <span className="block h-1.5 overflow-hidden rounded-full bg-paper/20">
                <span className="block h-full w-[72%] rounded-full bg-accent" />
              </span>
            </li>
          </ul>
        </div>
      </div>
    </div>
  );
}
