import { QueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/app/app';
import { routerReady } from '../../src/app/boot';
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

describe('routerReady', () => {
  afterEach(() => vi.useRealTimers());

  /** A router whose only page's module arrives when the test calls `arrive`. */
  function routerWithPage() {
    let arrive = () => {};
    const router = createMemoryRouter([
      {
        path: '/',
        lazy: () =>
          new Promise<{ Component: () => null }>((resolve) => {
            arrive = () => resolve({ Component: () => null });
          }),
      },
    ]);
    return { router, arrive: () => arrive() };
  }

  it("waits for the first page's route module", async () => {
    vi.useFakeTimers();
    const { router, arrive } = routerWithPage();
    let ready = false;
    void routerReady(router, 300).then(() => (ready = true));
    await vi.advanceTimersByTimeAsync(200);
    expect(ready).toBe(false);
    arrive();
    await vi.advanceTimersByTimeAsync(0);
    expect(ready).toBe(true);
  });

  it('stops waiting for a module that comes slowly', async () => {
    vi.useFakeTimers();
    const { router } = routerWithPage();
    let ready = false;
    void routerReady(router, 300).then(() => (ready = true));
    await vi.advanceTimersByTimeAsync(299);
    expect(ready).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(ready).toBe(true);
  });

  it('resolves at once when the page has no module to load', async () => {
    const router = createMemoryRouter([{ path: '/', Component: () => null }]);
    await expect(routerReady(router, 60_000)).resolves.toBeUndefined();
  });
});
