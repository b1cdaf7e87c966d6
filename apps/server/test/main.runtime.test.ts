import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { SETUP_TOKEN_COOKIE } from '@atelier/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnv } from '../src/env';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/** Runs src/main.ts the way `npm run dev` does, with only the given variables. */
function start(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function collect(child: ChildProcess): { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  return { out: () => out, err: () => err };
}

// Each test starts a real process that transpiles the server on the fly, which takes a while on a busy machine.
describe('main', { timeout: 120_000 }, () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it('exits with one clear line on bad configuration', async () => {
    const child = start({ PORT: 'eighty', DATABASE_URL: 'mysql://db/atelier' });
    const output = collect(child);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(output.err().trim().split('\n')).toEqual([
      'Invalid configuration: PORT Invalid input: expected number, received NaN; DATABASE_URL must start with postgres://, postgresql://, sqlite: or file:',
    ]);
  });

  it('exits with one line naming an unreachable database, password masked', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'atelier-main-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const child = start({
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://atelier:hunter2@127.0.0.1:1/atelier',
    });
    const output = collect(child);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    const lines = output.err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Cannot open the database postgres:\/\/atelier:\*\*\*@127\.0\.0\.1:1\/atelier: .*ECONNREFUSED/,
    );
  });

  it('migrates, listens, and prints the setup link with its one-time token on a fresh data folder', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'atelier-main-'));
    const child = start({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      SERVICES: 'api',
    });
    cleanups.push(() => {
      child.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    });
    const output = collect(child);
    const url = await new Promise<string>((resolve, reject) => {
      child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output.err()}`)));
      child.stdout!.on('data', () => {
        const match = /Atelier is running at (http:\/\/localhost:\d+)/.exec(output.out());
        if (match && output.out().includes('setup wizard')) resolve(match[1]!);
      });
    });
    const setupLink = new RegExp(
      `Not installed yet: open ${url}/install\\?token=([\\w-]{43}) to run the setup wizard\\.`,
    );
    const token = setupLink.exec(output.out())?.[1];
    expect(token, output.out()).toBeDefined();
    const config = (await (await fetch(`${url}/api/config`)).json()) as { installation: string };
    expect(config.installation).toBe('installation-needed');
    // The printed token is the key to the wizard; without it the wizard answers 403.
    const statusCheck = `${url}/api/setup/status-check`;
    expect((await fetch(statusCheck)).status).toBe(403);
    const opened = await fetch(statusCheck, { headers: { cookie: `${SETUP_TOKEN_COOKIE}=${token}` } });
    expect(opened.status).toBe(200);
  });
});

describe('the listening address', () => {
  const hostOf = (env: Record<string, string>) => parseEnv(env).HOST;

  it('is every interface by default, the loopback one when a proxy is trusted, and HOST whenever set', () => {
    expect(hostOf({})).toBe('0.0.0.0');
    expect(hostOf({ TRUST_PROXY: 'false' })).toBe('0.0.0.0');
    // A trusted proxy's header names the client: whoever reaches the port directly could name anyone.
    for (const trusted of ['1', 'true', '2', '10.0.0.2', 'loopback'])
      expect(hostOf({ TRUST_PROXY: trusted }), trusted).toBe('127.0.0.1');
    expect(hostOf({ TRUST_PROXY: '1', HOST: '' })).toBe('127.0.0.1');
    expect(hostOf({ TRUST_PROXY: '1', HOST: '0.0.0.0' })).toBe('0.0.0.0');
    expect(hostOf({ TRUST_PROXY: '10.0.0.2', HOST: '10.0.0.5' })).toBe('10.0.0.5');
    expect(hostOf({ HOST: '::' })).toBe('::');
  });
});

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** An address of this machine other than loopback, if it has one. */
function outsideAddress(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
}

describe('main behind a trusted proxy', { timeout: 120_000 }, () => {
  it('listens on the loopback interface only and says so, when HOST is not set', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'atelier-main-'));
    const child = start({
      PORT: '0',
      TRUST_PROXY: '1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      SERVICES: 'api',
    });
    try {
      const output = collect(child);
      const port = await new Promise<number>((resolve, reject) => {
        child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output.err()}`)));
        child.stdout!.on('data', () => {
          const match = /Atelier is running at http:\/\/localhost:(\d+)/.exec(output.out());
          if (match && output.out().includes('TRUST_PROXY')) resolve(Number(match[1]));
        });
      });
      expect(output.out()).toContain('TRUST_PROXY is set: listening on 127.0.0.1 only');
      expect(await accepts('127.0.0.1', port)).toBe(true);
      const outside = outsideAddress();
      if (outside) expect(await accepts(outside, port), outside).toBe(false);
    } finally {
      child.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
