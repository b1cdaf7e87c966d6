import { Worker } from 'node:worker_threads';
import type { BenchApp } from './atelier-app';

// The client reads in a thread of its own, as a browser would in its own process, so the server's
// event loop is not also the one draining the socket. It fetches its URLs one after another and, when
// asked, hashes what it got (SHA-256 of all the bodies in turn).
const DOWNLOAD_CLIENT = `
const http = require('node:http');
const { createHash } = require('node:crypto');
const { parentPort, workerData } = require('node:worker_threads');
const hash = workerData.hash ? createHash('sha256') : null;
const started = performance.now();
let firstByteMs = 0;
let bytes = 0;
const next = (index) => {
  if (index === workerData.urls.length)
    return parentPort.postMessage({
      ms: performance.now() - started,
      firstByteMs,
      bytes,
      sha256: hash ? hash.digest('hex') : null,
    });
  const range = workerData.ranges && workerData.ranges[index];
  const headers = range ? { ...workerData.headers, range } : workerData.headers;
  http.get(workerData.urls[index], { headers }, (response) => {
    if (response.statusCode !== (range ? 206 : 200))
      throw new Error(workerData.urls[index] + ' answered ' + response.statusCode);
    response.on('data', (chunk) => {
      if (bytes === 0) firstByteMs = performance.now() - started;
      bytes += chunk.length;
      hash?.update(chunk);
    });
    response.on('end', () => next(index + 1));
  });
};
next(0);
`;

export interface Downloaded {
  ms: number;
  firstByteMs: number;
  bytes: number;
  /** The SHA-256 of the bodies, when asked for. */
  sha256: string | null;
}

/** GETs `paths` of the app one after another (with `ranges[i]` as the Range of the i-th, if given). */
export function download(
  atelier: BenchApp,
  paths: string[],
  options: { ranges?: string[]; hash?: boolean } = {},
): Promise<Downloaded> {
  const urls = paths.map((path) => `${atelier.url}${path}`);
  const client = new Worker(DOWNLOAD_CLIENT, {
    eval: true,
    workerData: { urls, ranges: options.ranges, hash: options.hash ?? false, headers: atelier.headers },
  });
  return new Promise<Downloaded>((resolve, reject) => {
    client.once('message', resolve);
    client.once('error', reject);
  }).finally(() => client.terminate());
}
