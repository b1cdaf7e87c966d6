import type { EmojiType } from '@atelier/contracts';
import { useState } from 'react';
import { cn } from '../lib/cn';
import { twemojiUrl } from '../lib/emoji';
import { useSession } from '../features/session/session-queries';

/** The signed-in person's emoji type; visitors without an account see twemoji. */
export function useEmojiType(): EmojiType {
  return useSession().user?.relationships.settings.data.attributes.emoji_type ?? 'twemoji';
}

/**
 * An emoji drawn in the chosen style: twemoji's graphics (the same on every device), or the
 * device's own emoji font (`applemoji`: Apple's on macOS and iOS). An emoji twemoji has no
 * graphic for falls back to the device's font.
 */
export function Emoji({ value, type, className }: { value: string; type?: EmojiType; className?: string }) {
  const chosen = useEmojiType();
  const [missing, setMissing] = useState<string | null>(null);
  if ((type ?? chosen) === 'applemoji' || missing === value) {
    return <span className={cn('font-emoji leading-none', className)}>{value}</span>;
  }
  return (
    <img
      src={twemojiUrl(value)}
      alt={value}
      draggable={false}
      onError={() => setMissing(value)}
      className={cn('inline-block size-[1em] align-[-0.125em]', className)}
    />
  );
}
