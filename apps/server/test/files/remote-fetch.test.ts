import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseAddressRanges } from '../../src/lib/public-address';
import {
  fileNameOf,
  RemoteFetcher,
  safeFileName,
  type RemoteFetchError,
} from '../../src/modules/files/remote-fetch';
import { serve, startOrigin, type Origin } from './remote-origin';

const loopbackAllowed = parseAddressRanges('127.0.0.0/8');

async function read(body: IncomingMessage): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of body) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
}

async function failure(promise: Promise<unknown>): Promise<RemoteFetchError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(Error);
  return error as RemoteFetchError;
}

describe('RemoteFetcher', () => {
  let origin: Origin;
  const hosts: string[] = [];

  beforeAll(async () => {
    origin = await startOrigin('127.0.0.1', {
      '/hello.txt': (request, response) => {
        hosts.push(request.headers.host ?? '');
        serve(Buffer.from('hello'))(request, response);
      },
      // Headers, then silence.
      '/stall': (_request, response) => {
        response.writeHead(200, { 'content-length': '10' });
        response.write('12345');
      },
      '/no-answer': () => undefined,
      // A byte every 50 ms, never silent for long, never finished.
      '/drip': (_request, response) => {
        response.writeHead(200);
        const timer = setInterval(() => response.write('.'), 50);
        response.on('close', () => clearInterval(timer));
      },
      '/gone': (_request, response) => response.writeHead(410).end(),
    });
  });
  afterAll(() => origin.close());

  it('resolves a name once and connects to the address it checked, so a rebinding answer is never used', async () => {
    const answers = [['127.0.0.1'], ['10.0.0.1']];
    const resolve = vi.fn(async () => answers.shift()!);
    const fetcher = new RemoteFetcher({ allowed: loopbackAllowed, resolve });
    const before = origin.hits.length;
    const response = await fetcher.open(
      `http://files.rebind.test:${origin.port}/hello.txt`,
      new AbortController().signal,
    );
    expect((await read(response.body)).toString()).toBe('hello');
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(resolve).toHaveBeenCalledWith('files.rebind.test');
    expect(origin.hits.length - before).toBe(1);
    // The site is asked for by its name, as a browser would.
    expect(hosts.at(-1)).toBe(`files.rebind.test:${origin.port}`);
    expect(response.fileName).toBe('hello.txt');
    expect(response.length).toBe(5);
  });

  it('refuses a name when any address it resolves to is private, without connecting', async () => {
    const before = origin.hits.length;
    const fetcher = new RemoteFetcher({ allowed: [], resolve: async () => ['93.184.216.34', '127.0.0.1'] });
    const error = await failure(
      fetcher.open(`http://mixed.test:${origin.port}/hello.txt`, new AbortController().signal),
    );
    expect(error.reason).toBe('address');
    expect(origin.hits.length).toBe(before);
  });

  it('fails a name that does not resolve', async () => {
    const fetcher = new RemoteFetcher({
      allowed: [],
      resolve: async () => {
        throw new Error('ENOTFOUND');
      },
    });
    expect((await failure(fetcher.open('http://nowhere.test/', new AbortController().signal))).reason).toBe(
      'dns',
    );
  });

  it('fails an answer other than 2xx', async () => {
    const fetcher = new RemoteFetcher({ allowed: loopbackAllowed });
    expect((await failure(fetcher.open(`${origin.url}/gone`, new AbortController().signal))).reason).toBe(
      'status',
    );
  });

  it('gives up on a server that does not answer, or goes silent in the middle of the body', async () => {
    const fetcher = new RemoteFetcher({ allowed: loopbackAllowed, idleTimeoutMs: 200 });
    const signal = new AbortController().signal;
    expect((await failure(fetcher.open(`${origin.url}/no-answer`, signal))).reason).toBe('timeout');
    const stalled = await fetcher.open(`${origin.url}/stall`, signal);
    expect((await failure(read(stalled.body))).reason).toBe('timeout');
  });

  it('ends a fetch that takes longer than the total time, even while bytes keep coming', async () => {
    const fetcher = new RemoteFetcher({ allowed: loopbackAllowed, totalTimeoutMs: 300 });
    const started = Date.now();
    const dripping = await fetcher.open(`${origin.url}/drip`, new AbortController().signal);
    expect((await failure(read(dripping.body))).reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('stops when the caller aborts', async () => {
    const fetcher = new RemoteFetcher({ allowed: loopbackAllowed });
    const controller = new AbortController();
    const dripping = await fetcher.open(`${origin.url}/drip`, controller.signal);
    setTimeout(() => controller.abort(), 100);
    expect((await failure(read(dripping.body))).name).toBe('AbortError');
  });

  it('refuses addresses other than http and https', async () => {
    const fetcher = new RemoteFetcher({ allowed: loopbackAllowed });
    for (const address of [
      'file:///etc/passwd',
      'ftp://127.0.0.1/a',
      'gopher://127.0.0.1:70/',
      'not an address',
    ])
      expect((await failure(fetcher.open(address, new AbortController().signal))).reason).toBe('protocol');
  });
});

describe('file names', () => {
  const at = (path: string) => new URL(`https://example.com${path}`);

  it('takes Content-Disposition’s name, the extended one first', () => {
    expect(
      fileNameOf(`attachment; filename="plain.txt"; filename*=UTF-8''na%C3%AFve%20plan.txt`, at('/x')),
    ).toBe('naïve plan.txt');
    expect(fileNameOf(`attachment; filename*=iso-8859-1'en'caf%E9.txt`, at('/x'))).toBe('café.txt');
    expect(fileNameOf('attachment; filename="say \\"hi\\".txt"', at('/x'))).toBe('say "hi".txt');
    expect(fileNameOf('inline; filename=report.pdf', at('/x'))).toBe('report.pdf');
  });

  it('falls back on the last segment of the path, decoded', () => {
    expect(fileNameOf(undefined, at('/a/b/summer%20photo.jpg?size=large'))).toBe('summer photo.jpg');
    expect(fileNameOf('attachment', at('/a/data.csv'))).toBe('data.csv');
    expect(fileNameOf(undefined, at('/'))).toBeNull();
    expect(fileNameOf(undefined, at('/bad%E0%A4%A.txt'))).toBe('bad%E0%A4%A.txt');
  });

  it('keeps names to what the file manager accepts', () => {
    expect(fileNameOf('attachment; filename="../../etc/passwd"', at('/x'))).toBe('passwd');
    expect(fileNameOf('attachment; filename="..\\\\..\\\\boot.ini"', at('/x'))).toBe('boot.ini');
    expect(fileNameOf('attachment; filename=".."', at('/fallback.bin'))).toBe('fallback.bin');
    expect(safeFileName('evil\u0000name\u001b.txt')).toBe('evilname.txt');
    expect(safeFileName('   ')).toBeNull();
    const long = safeFileName(`${'a'.repeat(300)}.tar`)!;
    expect(long).toHaveLength(255);
    expect(long.endsWith('a.tar')).toBe(true);
    // Cut between two characters, never inside one written as two UTF-16 units.
    expect(safeFileName(`${'a'.repeat(250)}${'😀'.repeat(10)}`)).toBe(`${'a'.repeat(250)}😀😀`);
  });
});
