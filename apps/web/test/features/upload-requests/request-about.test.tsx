import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../render-app';

describe('/request without a link', { timeout: 30_000 }, () => {
  it('explains upload requests and what to do, instead of a not-found', async () => {
    await renderApp('/request');
    expect(
      await screen.findByRole('heading', { name: 'Sending files through an upload request' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Open the whole link you were sent' })).toBeInTheDocument();
    expect(screen.queryByText('This page does not exist')).not.toBeInTheDocument();
    expect(document.title).toContain('Sending files through an upload request');
  });
});
