import { QueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { App } from '../../src/app/app';
import { routes } from '../../src/app/routes';
import { createTestI18n } from '../render-app';

describe('boot', () => {
  it('explains itself when the instance config cannot be loaded', async () => {
    // The config request gets no answer (there is no server behind this test).
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const router = createMemoryRouter(routes, { initialEntries: ['/'] });
    const i18n = await createTestI18n();
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(<App queryClient={queryClient} i18n={i18n} router={router} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('could not load its settings');
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeInTheDocument();
    quiet.mockRestore();
  });
});
