import path from 'node:path';
import type { Response } from 'light-my-request';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/plugins/session.plugin';
import { multipartBody } from '../files/files-harness';
import { describeEachDatabase } from '../support/each-database';
import { createTestApp, type TestApp } from '../support/test-app';
import { shareSessionCookie } from '../../src/modules/sharing/sharing.routes';
import { accessTable, type AccessRow, type CallForm, type RequestSpec } from './access-table';
import { ACTOR_KINDS, actorFor, type Actor } from './actors';
import { servedRoutes, type ServedRoute } from './route-inventory';
import { SEEDED_USERS, seedUsers, type Seed } from './seed';
import { differences, differencesFor, snapshotter, type StateSnapshot } from './state-snapshot';

function formsOf(route: ServedRoute): CallForm[] {
  return [
    'verb',
    ...(route.overridePost ? ['override' as const] : []),
    ...(route.head ? ['head' as const] : []),
  ];
}

function urlOf(route: ServedRoute, spec: RequestSpec): string {
  const filled = route.url.replace(/:(\w+)|\*/g, (whole, name: string | undefined) => {
    const value = spec.params?.[name ?? '*'];
    if (value === undefined) throw new Error(`${route.key}: no value for ${whole}`);
    return name ? encodeURIComponent(value) : value;
  });
  const query = new URLSearchParams(spec.query).toString();
  return query ? `${filled}?${query}` : filled;
}

async function send(actor: Actor, route: ServedRoute, spec: RequestSpec, form: CallForm): Promise<Response> {
  const url = urlOf(route, spec);
  if (form === 'head') {
    const cookies = [SESSION_COOKIE, shareSessionCookie(actor.share.token)].flatMap((name) => {
      const value = actor.agent.cookie(name);
      return value ? [`${name}=${value}`] : [];
    });
    return actor.agent.app.inject({
      method: 'HEAD',
      url,
      headers: { ...spec.headers, ...(cookies.length > 0 ? { cookie: cookies.join('; ') } : {}) },
      ...(actor.address ? { remoteAddress: actor.address } : {}),
    });
  }
  if (spec.form) {
    const { payload, headers } = multipartBody(spec.form);
    return actor.agent.request(route.method as 'POST', url, payload, { headers });
  }
  if (form === 'override')
    return actor.agent.post(url, { ...spec.body, _method: route.method.toLowerCase() });
  return actor.agent.request(route.method as 'GET', url, spec.payload ?? spec.body, {
    headers: spec.headers,
  });
}

/** The seeded users' secrets found in an answer to `actor` that the actor has no business seeing. */
function leaksIn(answer: Response, actor: Actor, row: AccessRow, seed: Seed): string[] {
  const text = answer.body + JSON.stringify(answer.headers);
  if (row.seesEveryone?.includes(actor.kind)) return [];
  return SEEDED_USERS.filter((user) => user !== actor.self)
    .filter((user) => !(user === 'owner' && row.seesOwnerData?.includes(actor.kind)))
    .flatMap((user) =>
      seed[user].secrets.filter((secret) => text.includes(secret)).map((s) => `${user}'s ${s}`),
    );
}

describeEachDatabase('authorization matrix', (kind) => {
  let t: TestApp;
  let seed: Seed;
  let routes: Map<string, ServedRoute>;

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    seed = await seedUsers(t);
    routes = new Map(servedRoutes(t.app).map((route) => [route.key, route]));
  });
  afterAll(() => t.close());

  it('has exactly one row for every route the app serves', () => {
    const rows = accessTable.map((row) => row.route);
    const problems = [
      ...[...routes.keys()]
        .filter((key) => !rows.includes(key as AccessRow['route']))
        .map((key) => `${key} is served but has no row in access-table.ts: declare who may call it`),
      ...rows
        .filter((key) => !routes.has(key))
        .map((key) => `${key} has a row but the app no longer serves it`),
      ...rows.filter((key, i) => rows.indexOf(key) !== i).map((key) => `${key} has more than one row`),
    ];
    expect(problems).toEqual([]);
  });

  it(
    'answers each actor as the table says, shows nobody else’s data, and changes nothing it refuses',
    // WebDAV's rows sign in with app passwords: argon2id for every wrong one.
    { timeout: 600_000 },
    async () => {
      const snapshot = snapshotter(t.deps.database, path.join(t.dataDir, 'storage'));
      // The owner comes last: the owner's own calls change the owner's data the others are tried on.
      const cells = ACTOR_KINDS.flatMap((actorKind) =>
        accessTable.flatMap((row) => {
          const route = routes.get(row.route);
          return route ? formsOf(route).map((form) => ({ actorKind, row, route, form })) : [];
        }),
      );
      // Every call gets its own client, made before any snapshot, so one snapshot ends a call and begins the next.
      const actors: Actor[] = [];
      for (const cell of cells) actors.push(await actorFor(t.app, seed, cell.actorKind));

      const failures: string[] = [];
      let current: StateSnapshot | undefined;
      for (const [i, { actorKind, row, route, form }] of cells.entries()) {
        const actor = actors[i]!;
        const expected = row.expect[actorKind];
        const checksState = actorKind !== 'owner' || expected >= 400;
        const before = checksState ? (current ?? (await snapshot())) : undefined;
        const answer = await send(actor, route, row.request?.(seed, actor, form) ?? {}, form);
        current = checksState ? await snapshot() : undefined;
        const cell = `${actorKind} ${form === 'verb' ? '' : `(${form}) `}${row.route}`;

        if (answer.statusCode !== expected)
          failures.push(
            `${cell}: answered ${answer.statusCode}, the table says ${expected} — ${answer.body.slice(0, 200)}`,
          );
        const leaks = leaksIn(answer, actor, row, seed);
        if (leaks.length > 0) failures.push(`${cell}: leaks ${leaks.join(', ')}`);
        if (before && current) {
          const changed =
            answer.statusCode >= 400
              ? differences(before, current)
              : row.changesOwnerData?.includes(actorKind)
                ? []
                : differencesFor(seed.owner.user.id, before, current);
          if (changed.length > 0) failures.push(`${cell}: changed ${changed.join(', ')}`);
        }
      }

      console.log(
        `authorization matrix [${kind}]: ${accessTable.length} routes × ${ACTOR_KINDS.length} actors = ` +
          `${accessTable.length * ACTOR_KINDS.length} cells, ${cells.length} requests (override and HEAD forms included)`,
      );
      expect(failures).toEqual([]);
    },
  );
});
