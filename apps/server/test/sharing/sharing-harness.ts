import type { ShareResource } from '@atelier/contracts';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { TestAgent } from '../support/agent';

/** A clock the app checks expiries against, moved by the test instead of waited for. */
export class TestClock {
  private at = Date.now();

  readonly now = (): Date => new Date(this.at);

  advanceHours(hours: number): void {
    this.at += hours * 3_600_000;
  }

  advanceSeconds(seconds: number): void {
    this.at += seconds * 1000;
  }
}

export type ShareAttributes = ShareResource['attributes'];

/** Creates a link as the owner, failing loudly unless it is created. */
export async function createShare(owner: TestAgent, body: Record<string, unknown>): Promise<ShareAttributes> {
  const res = await owner.post('/api/share', body);
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { data: ShareResource }).data.attributes;
}

/** A browser of someone without an account who was given a link: its own cookies, its XSRF cookie picked up. */
export async function anonymousAgent(app: FastifyInstance, address?: string): Promise<TestAgent> {
  const agent = new TestAgent(app, address);
  await agent.get('/api/ping');
  return agent;
}

/** Gives a protected link's password, failing loudly unless it opens the link. */
export async function unlock(agent: TestAgent, token: string, password: string): Promise<void> {
  const res = await agent.post(`/api/sharing/authenticate/${token}`, { password });
  expect(res.statusCode, res.body).toBe(204);
}
