import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { displayFileName } from '../../../src/lib/file-name';
import { buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { buildItem, fakeFilesServer } from './fake-files-server';

describe('file names with direction controls', { timeout: 30_000 }, () => {
  beforeEach(() => {
    const server = fakeFilesServer([
      buildItem('file', 'invoice\u202egpj.exe', { filesize: 2048 }),
      buildItem('folder', 'plain \u2067folder\u2069', { items: 0 }),
    ]);
    vi.stubGlobal('fetch', server.fetch);
  });

  it('shows each control as a visible code instead of letting it turn the name around', async () => {
    await renderApp('/platform/files', { user: buildUser() });
    expect(await screen.findByText('invoice<U+202E>gpj.exe')).toBeInTheDocument();
    // The folder shows in the list and in the tree beside it.
    expect(screen.getAllByText('plain <U+2067>folder<U+2069>').length).toBeGreaterThan(0);
    expect(document.body.textContent).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });

  it('escapes every bidirectional control and leaves other text, joiners included, as it is', () => {
    expect(displayFileName('a\u202ab\u202bc\u202cd\u202de\u202ef')).toBe(
      'a<U+202A>b<U+202B>c<U+202C>d<U+202D>e<U+202E>f',
    );
    expect(displayFileName('\u200e\u200f\u061c\u2066\u2067\u2068\u2069')).toBe(
      '<U+200E><U+200F><U+061C><U+2066><U+2067><U+2068><U+2069>',
    );
    expect(displayFileName('Zoë ناصر 👩\u200d💻.png')).toBe('Zoë ناصر 👩\u200d💻.png');
  });
});
