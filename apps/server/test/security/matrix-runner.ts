import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Response } from 'light-my-request';
import { SESSION_COOKIE } from '../../src/plugins/session.plugin';
import { multipartBody } from '../files/files-harness';
import type { DatabaseKind } from '../support/databases';
import { createTestApp, type TestApp } from '../support/test-app';
import { shareSessionCookie } from '../../src/modules/sharing/sharing.routes';
import { accessTable, type AccessRow, type CallForm, type RequestSpec } from './access-table';
import { ACTOR_KINDS, actorFor, type Actor, type ActorKind } from './actors';
import { servedRoutes, type RouteKey, type ServedRoute } from './route-inventory';
import { respellPath, sameRoute, type Spelling } from './respellings';
import { SEEDED_USERS, seedUsers, type Seed } from './seed';
import {
  differences,
  differencesFor,
  snapshotter,
  type Snapshotter,
  type StateSnapshot,
} from './state-snapshot';

export function formsOf(route: ServedRoute): CallForm[] {
  return [
    'verb',
    ...(route.overridePost ? ['override' as const] : []),
    ...(route.head ? ['head' as const] : []),
  ];
}

export function urlOf(route: ServedRoute, spec: RequestSpec): string {
  const filled = route.url.replace(/:(\w+)|\*/g, (whole, name: string | undefined) => {
    const value = spec.params?.[name ?? '*'];
    if (value === undefined) throw new Error(`${route.key}: no value for ${whole}`);
    return name ? encodeURIComponent(value) : value;
  });
  const query = new URLSearchParams(spec.query).toString();
  return query ? `${filled}?${query}` : filled;
}

async function send(
  actor: Actor,
  route: ServedRoute,
  spec: RequestSpec,
  form: CallForm,
  url = urlOf(route, spec),
): Promise<Response> {
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

function codeOf(answer: Response): unknown {
  try {
    return (answer.json() as { code?: unknown }).code;
  } catch {
    return undefined;
  }
}

/**
 * An answer's body as the leak search reads it. A link that ended (410 share_revoked or
 * share_expired) names its owner, whom its holder may ask for a new one (the contract): its `owner`
 * and the message that names them are left out, and everything else is searched.
 */
function searchedBody(answer: Response): string {
  if (answer.statusCode !== 410) return answer.body;
  try {
    const { owner: _owner, message: _message, ...rest } = answer.json() as Record<string, unknown>;
    return rest.code === 'share_revoked' || rest.code === 'share_expired'
      ? JSON.stringify(rest)
      : answer.body;
  } catch {
    return answer.body;
  }
}

/** The seeded users' secrets found in an answer to `actor` that the actor has no business seeing. */
function leaksIn(answer: Response, actor: Actor, row: AccessRow, seed: Seed): string[] {
  const text = searchedBody(answer) + JSON.stringify(answer.headers);
  if (row.seesEveryone?.includes(actor.kind)) return [];
  return SEEDED_USERS.filter((user) => user !== actor.self)
    .filter((user) => !(user === 'owner' && row.seesOwnerData?.includes(actor.kind)))
    .flatMap((user) =>
      seed[user].secrets.filter((secret) => text.includes(secret)).map((s) => `${user}'s ${s}`),
    );
}

export type SpellingKind = 'plain' | Spelling['kind'];

/**
 * Routes whose handler finds what it serves in the request's URL, not in the route's parameters
 * (WebDAV's handler, at /dav/ and /remote.php/, and the API reference's files served by
 * @fastify/static under swagger-ui): to them an escaped letter names nothing, so a call that gets
 * past every check before the handler answers 404 and changes nothing. Every check before them
 * still decides on the route.
 */
export const readsRawUrl = (route: RouteKey) =>
  route === 'GET /api/docs/static/*' || / \/(dav|remote\.php)\//.test(route);

export interface Cell {
  actorKind: ActorKind;
  row: AccessRow;
  route: ServedRoute;
  form: CallForm;
  /** Which of its route's calls this is (0 for the first actor's first form), to spread spellings over them. */
  turn: number;
}

/** What a call must answer: a status, and the error code when the answer is the gate's. */
export interface Expectation {
  status: number;
  code?: string;
  /** 404 is right too: a handler that reads the raw URL found nothing there (see readsRawUrl). */
  orNotFound?: boolean;
}

/** One run of every cell on its own app, each call spelled and judged the pass's way. */
export interface Pass {
  name: string;
  /**
   * The URL the cell's call goes to: the served spelling or another one of the same route; `turn` of
   * `of` when it is one of the route's spellings taken in turn (see spellingInTurn).
   */
  spell(cell: Cell, url: string): { url: string; kind: SpellingKind; turn?: number; of?: number };
  expect(cell: Cell, kind: SpellingKind): Expectation;
  /** Calls sent before the cell's own, by the same actor, each of which must answer 404 and change nothing. */
  probes?(cell: Cell, url: string): string[];
  /** Runs once every actor is made, before the first call (switching maintenance mode on…). */
  prepare?(): Promise<void>;
}

export interface PassResult {
  failures: string[];
  requests: number;
  /** How many of the requests went out in a spelling other than the served one (probes included). */
  respelled: number;
  /** The status each cell got, by `cellName`. */
  answers: Map<string, number>;
  /** Every path sent, per route. */
  spellings: Map<string, Set<string>>;
  /** Per route, the turns of its spellings (see spellingInTurn) no call was sent in. */
  spellingsOwed: Map<string, Set<number>>;
}

export const cellName = ({ actorKind, form, row }: Cell) =>
  `${actorKind} ${form === 'verb' ? '' : `(${form}) `}${row.route}`;

function cellsOf(routes: Map<string, ServedRoute>): Cell[] {
  const turns = new Map<string, number>();
  // The owner comes last: the owner's own calls change the owner's data the others are tried on.
  return ACTOR_KINDS.flatMap((actorKind) =>
    accessTable.flatMap((row) => {
      const route = routes.get(row.route);
      if (!route) return [];
      return formsOf(route).map((form) => {
        const turn = turns.get(row.route) ?? 0;
        turns.set(row.route, turn + 1);
        return { actorKind, row, route, form, turn };
      });
    }),
  );
}

/**
 * A fresh client for each cell, made one of each actor kind at a time: each is a session and a page
 * load, round trips that on PostgreSQL, one after another, took a quarter of the pass; one of a kind,
 * as a kind's own calls count per address while in flight (the link password of shareUnlocked).
 */
async function clientsFor(app: FastifyInstance, seed: Seed, cells: Cell[]): Promise<Actor[]> {
  const actors: Actor[] = [];
  const byKind = new Map<ActorKind, number[]>();
  for (const [i, { actorKind }] of cells.entries())
    byKind.set(actorKind, [...(byKind.get(actorKind) ?? []), i]);
  for (let round = 0; ; round++) {
    const indexes = [...byKind.values()].flatMap((of) => (round < of.length ? [of[round]!] : []));
    if (indexes.length === 0) return actors;
    await Promise.all(
      indexes.map(async (i) => {
        actors[i] = await actorFor(app, seed, cells[i]!.actorKind);
      }),
    );
  }
}

/**
 * Sends every cell once, in the order of the access table's actors (the owner last), and checks each
 * answer's status, that it shows nobody else's data, and that a refused call changed nothing.
 */
export async function runPass(m: MatrixApp, pass: Pass): Promise<PassResult> {
  const snapshot = snapshotter(m.t.deps.database, path.join(m.t.dataDir, 'storage'));
  try {
    return await sendEveryCell(m, pass, snapshot);
  } finally {
    snapshot.close();
  }
}

async function sendEveryCell(
  { t, seed, routes }: MatrixApp,
  pass: Pass,
  snapshot: Snapshotter,
): Promise<PassResult> {
  const cells = cellsOf(routes);
  // Every call gets its own client, made before any snapshot, so one snapshot ends a call and begins the next.
  const actors = await clientsFor(t.app, seed, cells);
  await pass.prepare?.();

  const result: PassResult = {
    failures: [],
    requests: 0,
    respelled: 0,
    answers: new Map(),
    spellings: new Map(),
    spellingsOwed: new Map(),
  };
  const sent = (cell: Cell, url: string, plainUrl: string) => {
    if (url !== plainUrl) result.respelled += 1;
    const spellings = result.spellings.get(cell.row.route) ?? new Set<string>();
    result.spellings.set(cell.row.route, spellings.add(url.split('?', 1)[0]!));
    result.requests += 1;
  };
  let current: StateSnapshot | undefined;
  for (const [i, cell] of cells.entries()) {
    const { actorKind, row, route, form } = cell;
    const actor = actors[i]!;
    const name = cellName(cell);
    const spec = row.request?.(seed, actor, form) ?? {};
    const plainUrl = urlOf(route, spec);

    for (const url of pass.probes?.(cell, plainUrl) ?? []) {
      const before = current ?? (await snapshot());
      const answer = await send(actor, route, spec, form, url);
      sent(cell, url, plainUrl);
      current = await snapshot();
      if (answer.statusCode !== 404)
        result.failures.push(
          `${name} as ${url}: answered ${answer.statusCode}, not 404 — ${answer.body.slice(0, 200)}`,
        );
      const changed = differences(before, current);
      if (changed.length > 0) result.failures.push(`${name} as ${url}: changed ${changed.join(', ')}`);
    }

    const { url, kind, turn, of } = pass.spell(cell, plainUrl);
    if (of !== undefined) {
      const owed = result.spellingsOwed.get(row.route) ?? new Set(Array.from({ length: of }, (_, n) => n));
      owed.delete(turn!);
      result.spellingsOwed.set(row.route, owed);
    }
    const expected = pass.expect(cell, kind);
    const checksState = actorKind !== 'owner' || expected.status >= 400;
    const before = checksState ? (current ?? (await snapshot())) : undefined;
    const answer = await send(actor, route, spec, form, url);
    sent(cell, url, plainUrl);
    result.answers.set(name, answer.statusCode);
    current = checksState ? await snapshot() : undefined;
    const label = url === plainUrl ? name : `${name} as ${url}`;

    if (answer.statusCode !== expected.status && !(expected.orNotFound && answer.statusCode === 404))
      result.failures.push(
        `${label}: answered ${answer.statusCode}, ${pass.name} expects ${expected.status} — ${answer.body.slice(0, 200)}`,
      );
    else if (expected.code && answer.body && form !== 'head' && codeOf(answer) !== expected.code)
      result.failures.push(`${label}: answered ${answer.body.slice(0, 200)}, not the code ${expected.code}`);
    const leaks = leaksIn(answer, actor, row, seed);
    if (leaks.length > 0) result.failures.push(`${label}: leaks ${leaks.join(', ')}`);
    if (before && current) {
      const changed =
        answer.statusCode >= 400
          ? differences(before, current)
          : row.changesOwnerData?.includes(actorKind)
            ? []
            : differencesFor(seed.owner.user.id, before, current);
      if (changed.length > 0) result.failures.push(`${label}: changed ${changed.join(', ')}`);
    }
  }
  return result;
}

/** An app of its own for one run of the matrix, seeded, with the routes it serves. */
export interface MatrixApp {
  t: TestApp;
  seed: Seed;
  routes: Map<string, ServedRoute>;
}

export async function matrixApp(kind: DatabaseKind): Promise<MatrixApp> {
  const t = await createTestApp({ database: kind });
  const seed = await seedUsers(t);
  return { t, seed, routes: new Map(servedRoutes(t.app).map((route) => [route.key, route])) };
}

/** What the access table says the cell's actor gets. */
export const tableAnswer = (cell: Cell): number => cell.row.expect[cell.actorKind];

/**
 * A spelling of the cell's path: the route's spellings (`sameRoute`, after the plain one when
 * `withPlain`) taken in turn over the route's calls, so every spelling of every route is sent by some
 * actor, each call once, and no call that changed data is repeated.
 */
export function spellingInTurn(
  cell: Cell,
  url: string,
  withPlain = false,
): { url: string; kind: SpellingKind; of: number; turn: number } {
  const path = url.split('?', 1)[0]!;
  const spellings: { path: string; kind: SpellingKind }[] = [
    ...(withPlain ? [{ path, kind: 'plain' as const }] : []),
    ...sameRoute(path),
  ];
  const turn = cell.turn % spellings.length;
  const { path: spelled, kind } = spellings[turn]!;
  return { url: respellPath(url, () => spelled), kind, of: spellings.length, turn };
}

/** Routes some of whose spellings were never sent, because the route has fewer calls than spellings. */
export function unsentSpellings(result: PassResult): string[] {
  return [...result.spellingsOwed].flatMap(([route, owed]) =>
    owed.size > 0 ? [`${route}: ${owed.size} of its spellings never sent`] : [],
  );
}
