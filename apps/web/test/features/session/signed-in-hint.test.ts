import { SIGNED_IN_COOKIE } from '@atelier/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { userQuery } from '../../../src/features/session/session-queries';

describe('who is signed in', () => {
  it('asks nothing of a browser the server marked as holding no session (no refused request on public pages)', async () => {
    document.cookie = `${SIGNED_IN_COOKIE}=; max-age=0; path=/`;
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    expect(await new QueryClient().fetchQuery(userQuery)).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('asks a browser with the mark, and takes a refusal (a session that ended) as nobody', async () => {
    const fetch = vi.fn(async (_input: RequestInfo | URL) =>
      Response.json({ message: 'Unauthenticated.' }, { status: 401 }),
    );
    vi.stubGlobal('fetch', fetch);
    expect(await new QueryClient().fetchQuery(userQuery)).toBeNull();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String(fetch.mock.calls[0]![0])).toContain('/api/user');
  });
});
