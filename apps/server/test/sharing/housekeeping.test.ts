import { afterAll, beforeAll, expect, it } from 'vitest';
import { jobDefinitions } from '../../src/jobs/job-registry';
import { shareHousekeepingJob } from '../../src/modules/sharing/sharing.jobs';
import { EXPIRED_SHARE_RETENTION_DAYS } from '../../src/modules/sharing/sharing.service';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { anonymousAgent, createShare, TestClock, unlock } from './sharing-harness';

describeEachDatabase('share housekeeping', (kind) => {
  let t: TestApp;
  let owner: TestAgent;
  const clock = new TestClock();

  beforeAll(async () => {
    t = await createTestApp({
      database: kind,
      clock: clock.now,
      // The clock moves past a month here; the owner's session would lapse on the way.
      env: { SESSION_TTL_DAYS: '365' },
    });
    ({ agent: owner } = await signedInAgent(t.app));
  });
  afterAll(() => t.close());

  const link = async (name: string, expiration: number | null, password?: string) => {
    const id = (await owner.post('/api/create-folder', { name })).json().data.id;
    return createShare(owner, {
      id,
      type: 'folder',
      permission: 'visitor',
      expiration,
      ...(password ? { isPassword: true, password } : {}),
    });
  };

  /** Runs the job as a worker would. */
  const runJob = async () =>
    (await shareHousekeepingJob.handler())(
      {},
      { jobId: 'test', attempt: 1, failures: 0, signal: new AbortController().signal, services: t.deps },
    );

  it('is one of the jobs a worker runs', () => {
    expect(jobDefinitions.map((d) => d.id)).toContain(shareHousekeepingJob.id);
  });

  it('removes links that expired long ago and spent sessions, and keeps the rest', async () => {
    const longGone = await link('Long gone', 1);
    const lately = await link('Lately expired', 168, 'lately secret');
    const forever = await link('Forever', null, 'forever secret');
    const visitor = await anonymousAgent(t.app);
    await unlock(visitor, forever.token, 'forever secret');
    await unlock(visitor, lately.token, 'lately secret');

    // Expired, but still the owner's to see and renew.
    clock.advanceHours(2);
    await runJob();
    expect((await owner.get(`/api/share/${longGone.token}`)).statusCode).toBe(200);
    expect((await visitor.get(`/api/sharing/${longGone.token}`)).statusCode).toBe(410);

    clock.advanceHours(EXPIRED_SHARE_RETENTION_DAYS * 24);
    await runJob();
    expect((await owner.get(`/api/share/${longGone.token}`)).statusCode).toBe(404);
    expect((await owner.get(`/api/share/${lately.token}`)).statusCode).toBe(200);
    expect((await owner.get(`/api/share/${forever.token}`)).statusCode).toBe(200);
    const sessions = await t.deps.database.db.selectFrom('share_sessions').selectAll().execute();
    expect(sessions).toEqual([]);
    const shared = (await owner.get('/api/browse/share')).json().data.map((i: { id: string }) => i.id);
    expect(shared).toHaveLength(2);
  });

  it('tells the visitors of a revoked link so for as long as an expired one, then forgets it', async () => {
    const revoked = await link('Revoked', null);
    await owner.post('/api/share/revoke', { tokens: [revoked.token], _method: 'delete' });
    const visitor = await anonymousAgent(t.app);

    clock.advanceHours(EXPIRED_SHARE_RETENTION_DAYS * 24 - 1);
    await runJob();
    expect((await visitor.get(`/api/sharing/${revoked.token}`)).json()).toMatchObject({
      code: 'share_revoked',
    });

    clock.advanceHours(2);
    await runJob();
    expect((await visitor.get(`/api/sharing/${revoked.token}`)).statusCode).toBe(404);
  });
});
