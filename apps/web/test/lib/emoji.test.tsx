import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { EmojiType } from '@atelier/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Emoji } from '../../src/components/emoji';
import { FOLDER_EMOJI } from '../../src/features/files/pickers';
import { TWEMOJI_PATH, twemojiUrl } from '../../src/lib/emoji';
import { buildConfig, buildUser } from '../fixtures';
import { createTestQueryClient } from '../render-app';

const twemojiFiles = path.dirname(createRequire(import.meta.url).resolve('@twemoji/svg/package.json'));
const fileOf = (url: string) => path.join(twemojiFiles, url.slice(TWEMOJI_PATH.length));

describe('twemoji file names', () => {
  it.each([
    ['📁', '1f4c1'],
    ['🗂️', '1f5c2'],
    ['❤️‍🔥', '2764-fe0f-200d-1f525'],
    ['#️⃣', '23-20e3'],
  ])('%s is drawn by %s.svg', (emoji, name) => {
    expect(twemojiUrl(emoji)).toBe(`${TWEMOJI_PATH}${name}.svg`);
    expect(existsSync(fileOf(twemojiUrl(emoji)))).toBe(true);
  });

  it('has a graphic for every emoji the folder picker offers', () => {
    const missing = FOLDER_EMOJI.filter((emoji) => !existsSync(fileOf(twemojiUrl(emoji))));
    expect(missing).toEqual([]);
  });
});

describe('Emoji', () => {
  /** Renders as a person whose emoji type is `chosen`. */
  const renderEmoji = (ui: React.ReactNode, chosen: EmojiType) => {
    const user = buildUser();
    user.data.relationships.settings.data.attributes.emoji_type = chosen;
    render(
      <QueryClientProvider client={createTestQueryClient(buildConfig(), user)}>{ui}</QueryClientProvider>,
    );
  };

  it('draws twemoji as an image for a person who chose it', () => {
    renderEmoji(<Emoji value="📁" />, 'twemoji');
    expect(screen.getByRole('img', { name: '📁' })).toHaveAttribute('src', `${TWEMOJI_PATH}1f4c1.svg`);
  });

  it('draws the device’s emoji as text for a person who chose applemoji', () => {
    renderEmoji(<Emoji value="📦" />, 'applemoji');
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByText('📦')).toHaveClass('font-emoji');
  });

  it('falls back to the device’s emoji when twemoji has no graphic for it', () => {
    renderEmoji(<Emoji value="🫨x" />, 'twemoji');
    fireEvent.error(screen.getByRole('img', { name: '🫨x' }));
    expect(screen.getByText('🫨x')).toHaveClass('font-emoji');
  });
});
