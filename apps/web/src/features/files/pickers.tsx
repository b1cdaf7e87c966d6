import { Ban, Check } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { Emoji } from '../../components/emoji';

/** Emoji offered for folders; stored as the character itself. */
export const FOLDER_EMOJI = [
  '📁',
  '📂',
  '🗂️',
  '📦',
  '🗃️',
  '📎',
  '📌',
  '⭐',
  '❤️',
  '🔥',
  '✨',
  '🎯',
  '📷',
  '🎬',
  '🎵',
  '🎨',
  '🖼️',
  '🎮',
  '📚',
  '📝',
  '📄',
  '📊',
  '💼',
  '💰',
  '🏠',
  '🏢',
  '✈️',
  '🌍',
  '🌿',
  '🌸',
  '☀️',
  '🌙',
  '🧪',
  '🔧',
  '⚙️',
  '💡',
  '🛠️',
  '🧩',
  '🚀',
  '🔒',
  '🎁',
  '🍕',
  '☕',
  '🐶',
  '🐱',
  '👶',
  '🎓',
  '🏆',
];

/** Folder colours; null keeps the theme's accent. */
export const FOLDER_COLOURS = [
  '#e35d3c',
  '#e8913a',
  '#d9b226',
  '#5bb068',
  '#2fa59b',
  '#3a8fd6',
  '#6a6fdc',
  '#a05fd1',
  '#d45c9c',
  '#7d8591',
];

export function EmojiPicker({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (emoji: string | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <div
      role="radiogroup"
      aria-label={t('files.emoji')}
      className="grid max-h-44 grid-cols-8 gap-1 overflow-y-auto rounded-xl border border-line p-1.5"
    >
      <button
        type="button"
        role="radio"
        aria-checked={value === null}
        aria-label={t('files.no_emoji')}
        onClick={() => onChange(null)}
        className={cn(
          'grid aspect-square cursor-pointer place-items-center rounded-lg text-muted hover:bg-surface-2',
          value === null && 'bg-accent-soft text-accent',
        )}
      >
        <Ban className="size-4" aria-hidden />
      </button>
      {FOLDER_EMOJI.map((emoji) => (
        <button
          key={emoji}
          type="button"
          role="radio"
          aria-checked={value === emoji}
          aria-label={emoji}
          onClick={() => onChange(emoji)}
          className={cn(
            'grid aspect-square cursor-pointer place-items-center rounded-lg text-lg hover:bg-surface-2',
            value === emoji && 'bg-accent-soft ring-2 ring-accent',
          )}
        >
          <Emoji value={emoji} />
        </button>
      ))}
    </div>
  );
}

export function ColourPicker({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (colour: string | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <div role="radiogroup" aria-label={t('files.colour')} className="flex flex-wrap gap-2">
      <button
        type="button"
        role="radio"
        aria-checked={value === null}
        aria-label={t('files.default_colour')}
        onClick={() => onChange(null)}
        className={cn(
          'grid size-8 cursor-pointer place-items-center rounded-full border-2 border-line bg-accent text-on-accent',
          value === null && 'ring-2 ring-ink ring-offset-2 ring-offset-surface',
        )}
      >
        {value === null && <Check className="size-4" strokeWidth={3} aria-hidden />}
      </button>
      {FOLDER_COLOURS.map((colour) => (
        <button
          key={colour}
          type="button"
          role="radio"
          aria-checked={value === colour}
          aria-label={colour}
          onClick={() => onChange(colour)}
          style={{ backgroundColor: colour }}
          className={cn(
            'grid size-8 cursor-pointer place-items-center rounded-full text-white',
            value === colour && 'ring-2 ring-ink ring-offset-2 ring-offset-surface',
          )}
        >
          {value === colour && <Check className="size-4" strokeWidth={3} aria-hidden />}
        </button>
      ))}
    </div>
  );
}
