import { useTranslation } from 'react-i18next';

export interface MonthlyValue {
  /** `YYYY-MM`. */
  month: string;
  value: number;
}

const HEIGHT = 160;

/** The chart's top: 2, 4 or 10 times a power of ten, so its half is a whole number too. */
function niceTop(max: number): number {
  if (max <= 0) return 2;
  const power = 10 ** Math.floor(Math.log10(max));
  return [2, 4, 10].map((step) => step * power).find((candidate) => candidate >= max) ?? 10 * power;
}
const BAR_GAP = 0.28;

/**
 * Twelve monthly bars as plain SVG: a dozen rectangles need no chart library (and no bytes of one
 * in the bundle). Each bar has its value as a title, and the whole chart a text summary.
 */
export function MonthlyChart({
  values,
  format,
  label,
}: {
  values: MonthlyValue[];
  format: (value: number) => string;
  label: string;
}) {
  const { i18n } = useTranslation();
  const top = niceTop(Math.max(...values.map((entry) => entry.value), 0));
  const monthName = (month: string) =>
    new Date(`${month}-01T00:00:00Z`).toLocaleDateString(i18n.language, { month: 'short', timeZone: 'UTC' });
  const width = 100 / Math.max(values.length, 1);

  return (
    <figure className="flex flex-col gap-2">
      <div className="relative" style={{ height: HEIGHT }}>
        {/* Three guide lines: the top value, half of it, and zero. */}
        <div aria-hidden className="absolute inset-0 flex flex-col justify-between">
          {[top, top / 2, 0].map((guide, i) => (
            <div key={i} className="flex items-center gap-2">
              <span className="w-12 shrink-0 text-right text-[11px] text-muted tabular-nums">
                {format(guide)}
              </span>
              <span className="h-px flex-1 bg-line" />
            </div>
          ))}
        </div>
        <svg
          role="img"
          aria-label={label}
          className="absolute inset-y-0 right-0 left-14 h-full w-[calc(100%-3.5rem)]"
          viewBox={`0 0 100 ${HEIGHT}`}
          preserveAspectRatio="none"
        >
          {values.map((entry, i) => {
            const height = (entry.value / top) * (HEIGHT - 2);
            return (
              <rect
                key={entry.month}
                data-testid="chart-bar"
                x={i * width + (width * BAR_GAP) / 2}
                y={HEIGHT - Math.max(height, 1)}
                width={width * (1 - BAR_GAP)}
                height={Math.max(height, 1)}
                rx={0.8}
                className={entry.value > 0 ? 'fill-accent' : 'fill-line'}
              >
                <title>{`${monthName(entry.month)}: ${format(entry.value)}`}</title>
              </rect>
            );
          })}
        </svg>
      </div>
      <div aria-hidden className="ml-14 flex">
        {values.map((entry, i) => (
          <span key={entry.month} className="flex-1 text-center text-[11px] text-muted">
            {/* Every other month on narrow screens, counted back from this one; all of them from sm up. */}
            <span className={(values.length - 1 - i) % 2 === 1 ? 'hidden sm:inline' : undefined}>
              {monthName(entry.month)}
            </span>
          </span>
        ))}
      </div>
    </figure>
  );
}
