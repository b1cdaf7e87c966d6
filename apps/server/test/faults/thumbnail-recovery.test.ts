import { THUMBNAIL_MIMETYPE } from '@atelier/contracts';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { periodicTasks } from '../../src/jobs/periodic-tasks';
import { thumbnailsJob } from '../../src/modules/files/files.jobs';
import { FilesRepository } from '../../src/modules/files/files.repository';
import { ThumbnailService } from '../../src/modules/files/thumbnail.service';
import { THUMBNAIL_SWEEP_AGE_MS, THUMBNAIL_SWEEP_TRIES } from '../../src/modules/files/files.tasks';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { uploaded } from '../files/files-harness';
import { waitFor } from '../jobs/support/wait-for';
import { killedWhileFiling } from '../support/killed-while-filing';

const T0 = new Date('2026-12-05T08:00:00Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

/**
 * A thumbnail job lost after its file was filed — its worker killed (kill -9, the kernel's OOM
 * killer) more often than a job may stall, its retries spent while storage was away, or a queue
 * lost with its Redis — no longer leaves the file without its picture for good: the file stays owed
 * its thumbnails until a job settles it, and the scheduler's sweep enqueues the job again.
 */
describeEachDatabase('lost thumbnail jobs', (kind) => {
  let now = T0;
  let t: TestApp;
  let agent: TestAgent;

  beforeAll(async () => {
    t = await createTestApp({ database: kind, clock: () => now });
    ({ agent } = await signedInAgent(t.app));
  });
  afterAll(async () => {
    await t.close();
  });

  const sweep = async (at: Date) => {
    now = at;
    const task = periodicTasks(t.deps).find((candidate) => candidate.name === 'files.thumbnail-sweep');
    expect(task, 'the scheduler runs a thumbnail sweep').toBeDefined();
    // The sweep's run answers how many files it enqueued again.
    return Number(await task!.run(at));
  };
  const thumbnailsOf = (itemId: string) =>
    t.deps.database.db.selectFrom('thumbnails').select('size').where('item_id', '=', itemId).execute();
  const thumbnailJobs = () =>
    t.deps.database.db
      .selectFrom('jobs')
      .select(['id', 'payload', 'status'])
      .where('name', '=', thumbnailsJob.id)
      .execute();
  /** What the queue does to a job whose worker vanished more often than MAX_STALLS: it is failed, not run again. */
  const loseThumbnailJobs = () =>
    t.deps.database.db
      .updateTable('jobs')
      .set({ status: 'failed', last_error: 'Its worker stopped responding 3 times.' })
      .where('name', '=', thumbnailsJob.id)
      .where('status', '=', 'queued')
      .execute();
  /** Runs the thumbnail jobs waiting now; between runs no worker takes them, so a test can lose them first. */
  const runThumbnailJobs = async () => {
    const worker = t.deps.jobs.startWorker({ definitions: [thumbnailsJob], services: t.deps });
    try {
      await waitFor(
        'the thumbnail jobs to finish',
        async () =>
          (await thumbnailJobs()).every((job) => job.status === 'completed' || job.status === 'failed'),
        30_000,
      );
    } finally {
      await worker.close();
    }
  };

  it('enqueues the lost job again once it is overdue, and the file gets its thumbnails', async () => {
    now = T0;
    const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c33' } })
      .png()
      .toBuffer();
    const file = await uploaded(agent, image, { name: `${randomBytes(4).toString('hex')}.png` });
    expect((await thumbnailJobs()).map((job) => JSON.parse(job.payload).itemId)).toContain(file.id);
    await loseThumbnailJobs();

    // Too young: its job may still be on its way.
    expect(await sweep(minutes(5))).toBe(0);
    expect(await sweep(minutes(11))).toBe(1);
    await runThumbnailJobs();
    expect((await thumbnailsOf(file.id)).length).toBeGreaterThan(0);
    // Settled: nothing is owed any more, the next sweeps enqueue nothing.
    expect(await sweep(minutes(30))).toBe(0);
  });

  it('keeps no picture of bytes replaced while it was made: the file shows its new picture', async () => {
    now = T0;
    const png = (colour: string) =>
      sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
        .png()
        .toBuffer();
    const name = `${randomBytes(4).toString('hex')}.png`;
    const file = await uploaded(agent, await png('#c33'), { name });
    // The job for the red bytes has made their thumbnails and is about to keep them.
    const { saving, release, slow } = holdNextSave();
    try {
      const first = t.deps.thumbnails.generate(file.id);
      await saving;
      await uploaded(agent, await png('#33c'), { name, conflict: 'replace' });
      release();
      await first;
    } finally {
      slow.mockRestore();
    }
    await runThumbnailJobs();
    const thumbnail = await agent.get(`/thumbnail/xs/${file.id}`);
    expect(thumbnail.statusCode).toBe(200);
    // The picture's address stays the file's: a browser that kept the old one asks again (and gets
    // a 304 while it is the same), rather than showing it for a day after the bytes were replaced.
    expect(thumbnail.headers['cache-control']).toBe('private, no-cache');
    const { data } = await sharp(thumbnail.rawPayload)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    // Blue, not red.
    expect(data[2]).toBeGreaterThan(data[0]!);
  });

  it('keeps one set of thumbnail objects when two runs for one file overlap: the later one removes its own', async () => {
    now = T0;
    const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c3c' } })
      .png()
      .toBuffer();
    const file = await uploaded(agent, image, { name: `${randomBytes(4).toString('hex')}.png` });
    const storage = await t.deps.storage.current();
    const put = storage.put.bind(storage);
    const written: string[] = [];
    const puts = vi.spyOn(storage, 'put').mockImplementation(async (key, body, options) => {
      if (options?.contentType === THUMBNAIL_MIMETYPE) written.push(key);
      return put(key, body, options);
    });
    // The first run (a stalled one, say) has made its thumbnails and waits to keep them while a
    // second run of the same file (its retry, a sweep's job) makes and keeps its own.
    const { saving, release, slow } = holdNextSave();
    try {
      const first = t.deps.thumbnails.generate(file.id);
      await saving;
      expect(await t.deps.thumbnails.generate(file.id)).toBe(true);
      release();
      expect(await first).toBe(true);
    } finally {
      slow.mockRestore();
      puts.mockRestore();
    }
    const kept = (
      await t.deps.database.db
        .selectFrom('thumbnails')
        .select('storage_key')
        .where('item_id', '=', file.id)
        .execute()
    ).map((row) => row.storage_key);
    expect(kept.length).toBeGreaterThan(0);
    // Both runs wrote objects; only those a row names are left.
    expect(written.length).toBe(2 * kept.length);
    const left = [];
    for (const key of written) if (await storage.exists(key)) left.push(key);
    expect(left.sort()).toEqual([...kept].sort());
  });

  it('leaves no thumbnail objects behind when its process is killed after storing them, before keeping them', async () => {
    now = T0;
    const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#33c' } })
      .png()
      .toBuffer();
    const file = await uploaded(agent, image, { name: `${randomBytes(4).toString('hex')}.png` });
    // The process dies as the thumbnails are being kept.
    const killed = await killedWhileFiling(t, {
      counts: (_, options) => options?.contentType === THUMBNAIL_MIMETYPE,
    });
    const keeping = vi
      .spyOn(FilesRepository.prototype, 'insertThumbnails')
      .mockRejectedValue(new Error('killed'));
    try {
      await expect(t.deps.thumbnails.generate(file.id)).rejects.toThrow('killed');
    } finally {
      keeping.mockRestore();
      killed.restore();
    }
    expect(killed.written.length).toBeGreaterThan(0);
    expect(await killed.leftAfterSweep(now)).toEqual([]);
    // The file is still owed its thumbnails: the thumbnail sweep enqueues the job again.
    expect(await thumbnailsOf(file.id)).toEqual([]);
  });

  it('gives up on bytes no decoder reads, and on a job lost again and again', async () => {
    now = minutes(60);
    // A PNG's signature and then noise: filed as an image, refused by the decoder for good.
    const broken = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(2048)]);
    const unreadable = await uploaded(agent, broken, { name: 'broken.png' });
    await runThumbnailJobs();
    expect(await thumbnailsOf(unreadable.id)).toEqual([]);
    expect(await sweep(minutes(80))).toBe(0);

    // A file whose job is lost every time (one that kills its worker): enqueued again a few times only.
    now = minutes(100);
    const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3c3' } })
      .png()
      .toBuffer();
    await uploaded(agent, image, { name: 'poison.png' });
    let swept = 0;
    for (let round = 1; round <= THUMBNAIL_SWEEP_TRIES + 2; round++) {
      await loseThumbnailJobs();
      swept += await sweep(minutes(100 + round * (THUMBNAIL_SWEEP_AGE_MS / 60_000 + 1)));
    }
    expect(swept).toBe(THUMBNAIL_SWEEP_TRIES);
  });
});

/**
 * Holds the next thumbnail run as it is about to keep its thumbnails: `saving` resolves once it
 * waits there, `release` lets it go on; `slow` is the spy to restore.
 */
function holdNextSave() {
  const save = ThumbnailService.prototype.save;
  let entered!: () => void;
  const saving = new Promise<void>((resolve) => (entered = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const slow = vi.spyOn(ThumbnailService.prototype, 'save').mockImplementationOnce(async function (
    this: ThumbnailService,
    ...args: unknown[]
  ) {
    entered();
    await released;
    return (save as (...all: unknown[]) => Promise<boolean>).apply(this, args);
  } as never);
  return { saving, release, slow };
}
