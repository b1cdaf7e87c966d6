import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { request as httpRequest } from 'node:http';
import { BODY_LIMIT } from '../../src/lib/body-limits';
import { xsrfCookieName } from '../../src/lib/xsrf-token';
import { SESSION_COOKIE } from '../../src/plugins/session.plugin';
import { actorFor, type ActorKind } from './actors';
import {
  Big,
  bigString,
  encodeSegment,
  hostileSegment,
  hostileValue,
  HOSTILE_STRINGS,
  toJson,
  toText,
} from './hostile-values';
import { OVERRIDABLE_METHODS, type ServedRoute } from './route-inventory';
import { fuzzedValue, validValue, type JsonSchema } from './schema-arbitraries';
import type { Seed } from './seed';

interface OpenApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  schema: JsonSchema;
}

/** One route's operation in the OpenAPI document; routes outside it fuzz without schemas. */
export interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** The chunk forms' fields (the description's, `offset`, `conflict`); the fuzzer fills them with anything. */
const FORM_FIELDS = [
  'name',
  'extension',
  'is_last_chunk',
  'path',
  'parent_id',
  'project_id',
  'offset',
  'conflict',
  '_method',
];

type FormPart = { field: unknown; value: unknown } | { file: unknown; filename: unknown; bytes: number };

/** A multipart body: its parts and a flood of small fields after them, under a boundary the header may or may not agree with. */
export interface MultipartSpec {
  parts: FormPart[];
  floodFields: number;
  boundary: 'declared' | 'other' | 'absent' | 'quoted' | 'overlong';
  terminated: boolean;
}

export type FuzzBody =
  { json: unknown } | { raw: string | Big; contentType: string } | { multipart: MultipartSpec };

/** One generated request: printed as is when it fails, after fast-check shrank it. */
export interface FuzzCase {
  actor: ActorKind;
  method: string;
  /** The path with its parameters filled and percent-encoded. */
  path: string;
  query: string;
  headers: Record<string, string | Big>;
  body?: FuzzBody;
}

/** Who the fuzzer sends requests as. */
const FUZZ_ACTORS: ActorKind[] = ['anonymous', 'stranger', 'owner'];

/** Real ids and link tokens of every seeded user, so generated requests get past "not found". */
function knownIds(seed: Seed): string[] {
  return Object.values(seed).flatMap((user) => [
    user.user.id,
    user.folder,
    user.file,
    user.image,
    user.trashedFolder,
    user.trashedFile,
    user.project,
    user.projectFolder,
    user.projectInput,
    ...Object.values(user.shares).flatMap((share) => [
      share.token,
      share.folder,
      share.file,
      share.versioned.file,
      share.versioned.read,
    ]),
    ...Object.values(user.requests).flatMap((request) => [request.token, request.inner, request.file]),
  ]);
}

function parametersOf(operation: OpenApiOperation | undefined, place: 'path' | 'query'): OpenApiParameter[] {
  return (operation?.parameters ?? []).filter((parameter) => parameter.in === place);
}

function pathArbitrary(
  route: ServedRoute,
  operation: OpenApiOperation | undefined,
  seed: Seed,
): fc.Arbitrary<string> {
  const schemas = new Map(parametersOf(operation, 'path').map((p) => [p.name, p.schema]));
  const names = [...route.url.matchAll(/:(\w+)|\*/g)].map((match) => match[1] ?? '*');
  const segment = (name: string) =>
    fc.oneof(
      { arbitrary: fc.constantFrom(...knownIds(seed), 'all'), weight: 3 },
      {
        arbitrary: validValue(schemas.get(name) ?? { type: 'string' }).map((value) =>
          encodeSegment(toText(value)),
        ),
        weight: 2,
      },
      { arbitrary: hostileSegment, weight: 2 },
    );
  return fc.tuple(...names.map(segment)).map((values) => {
    let i = 0;
    return route.url.replace(/:(\w+)|\*/g, () => values[i++]!);
  });
}

function queryArbitrary(operation: OpenApiOperation | undefined): fc.Arbitrary<string> {
  const fields = Object.fromEntries(
    parametersOf(operation, 'query').map((p) => [p.name, fuzzedValue(p.schema)]),
  );
  const declared = fc.record(fields, { requiredKeys: [] }).map((values) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(values)) query.append(key, toText(value));
    return query.toString();
  });
  const hostile = fc.oneof(
    fc.constantFrom(
      '%',
      'a=%zz',
      '&&&=',
      'page=1&page=2',
      'items[]=x&items[]=y',
      '__proto__[x]=1',
      'constructor[prototype][x]=1',
      'a'.repeat(100_000),
    ),
    fc
      .tuple(fc.constantFrom(...Object.keys(fields), 'x'), hostileValue)
      .map(([key, value]) => `${key}=${encodeSegment(toText(value))}`),
  );
  return fc.oneof({ arbitrary: declared, weight: 4 }, { arbitrary: hostile, weight: 1 });
}

const formPart: fc.Arbitrary<FormPart> = fc.oneof(
  fc.record({
    field: fc.oneof(fc.constantFrom(...FORM_FIELDS), bigString),
    value: fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), bigString, fc.string()),
  }),
  fc.record({
    file: fc.constantFrom('chunk', 'file', ''),
    filename: fc.oneof(
      fc.constantFrom('a.part', 'x.stl', '../../evil.part', 'a"b.part', 'a\r\nb.part', ''),
      bigString,
    ),
    bytes: fc.constantFrom(0, 1, 100, 70_000),
  }),
);

const multipartArbitrary: fc.Arbitrary<MultipartSpec> = fc.record({
  parts: fc.array(formPart, { maxLength: 8 }),
  floodFields: fc.constantFrom(0, 0, 0, 5_000),
  boundary: fc.constantFrom('declared', 'declared', 'declared', 'other', 'absent', 'quoted', 'overlong'),
  terminated: fc.boolean(),
});

function bodyArbitrary(
  route: ServedRoute,
  operation: OpenApiOperation | undefined,
): fc.Arbitrary<FuzzBody | undefined> {
  const schema = operation?.requestBody?.content?.['application/json']?.schema;
  const json = schema ? fuzzedValue(schema) : fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(
    { arbitrary: json.map((value) => ({ json: value })), weight: schema ? 8 : 1 },
    { arbitrary: multipartArbitrary.map((multipart) => ({ multipart })), weight: schema ? 1 : 6 },
    {
      arbitrary: fc.record({
        raw: fc.oneof(
          // Past every body limit.
          fc.constant(new Big('string', 'a', 2_000_000)),
          fc.constantFrom(
            '',
            '{',
            '{"a":',
            'null',
            '[]',
            '"x"',
            '1e999',
            '{"__proto__":{"polluted":1}}',
            '\uFEFF{}',
            '{"a":1,"a":2}',
          ),
          fc.constantFrom(new Big('nesting', 'array', 5_000), new Big('nesting', 'object', 5_000)),
          bigString,
        ),
        contentType: fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=utf-16',
          'application/xml',
          // A delta upload's block (PUT /api/upload/blocks/{sha256}) is raw bytes.
          'application/octet-stream',
        ),
      }),
      weight: 2,
    },
    { arbitrary: fc.constant(undefined), weight: route.method === 'GET' ? 6 : 1 },
  );
}

const headersArbitrary: fc.Arbitrary<Record<string, string | Big>> = fc.oneof(
  { arbitrary: fc.constant({}), weight: 8 },
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          'x-xsrf-token',
          'cookie',
          'range',
          'if-none-match',
          'if-modified-since',
          'accept-language',
          'x-forwarded-for',
          'accept',
          'content-language',
        ),
        fc.oneof(
          fc.constantFrom<string | Big>(
            ...HOSTILE_STRINGS.filter((s) => !/[\r\n\0]/.test(s)),
            'bytes=999999999-',
            'bytes=-0',
            'bytes=5-1,0-0,1-1',
            'atelier_session=%',
            'a=%E0%A4%A',
          ),
          fc.constant(new Big('string', 'a', 16_000)),
        ),
      )
      .map(([name, value]) => ({ [name]: value })),
    weight: 2,
  },
);

// ---- WebDAV: XML bodies and the protocol's headers ----------------------------------------------

const DAV_NS = 'xmlns:D="DAV:" xmlns:Z="urn:fuzz"';
const PATCH_OPEN = `<D:propertyupdate ${DAV_NS}><D:set><D:prop><Z:p>`;
const PATCH_CLOSE = '</Z:p></D:prop></D:set></D:propertyupdate>';
/** A PROPPATCH setting one property to `content`, as XML. */
const inPatch = (content: string) => `${PATCH_OPEN}${content}${PATCH_CLOSE}`;
const ENTITY_LAUGHS =
  '<!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">' +
  '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>';

/**
 * Bodies of PROPFIND, PROPPATCH and LOCK: valid ones, malformed ones, entities, and bodies deep,
 * wide or large enough to cost the server if it parsed them whole.
 */
const davXml: fc.Arbitrary<string | Big> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom(
      '',
      `<D:propfind ${DAV_NS}><D:allprop/></D:propfind>`,
      `<D:propfind ${DAV_NS}><D:propname/></D:propfind>`,
      `<D:propfind ${DAV_NS}><D:prop><D:getetag/><D:lockdiscovery/><Z:p/></D:prop></D:propfind>`,
      inPatch('teal'),
      `<D:propertyupdate ${DAV_NS}><D:remove><D:prop><Z:p/></D:prop></D:remove></D:propertyupdate>`,
      `<D:propertyupdate ${DAV_NS}><D:set><D:prop><D:getetag>x</D:getetag></D:prop></D:set></D:propertyupdate>`,
      `<D:propertyupdate ${DAV_NS}><D:set><D:prop>${Array.from({ length: 65 }, (_, i) => `<Z:n${i}>v</Z:n${i}>`).join('')}</D:prop></D:set></D:propertyupdate>`,
      `<D:lockinfo ${DAV_NS}><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>fuzz</D:owner></D:lockinfo>`,
    ),
  },
  {
    // Unterminated markup, markup hidden in comments, CDATA and attributes, wrong roots, unbound prefixes.
    weight: 2,
    arbitrary: fc.constantFrom(
      '<',
      '<D:propfind',
      '<!--',
      '<![CDATA[',
      '<?xml',
      `<D:propfind ${DAV_NS}>`,
      '<propfind/>',
      '<x:propfind xmlns:x="urn:other"/>',
      '<D:propfind><D:allprop/></D:propfind>',
      inPatch(`<!-- ${'<a>'.repeat(50)} --><![CDATA[${'<a>'.repeat(50)}]]><?pi ${'<a>'.repeat(50)}?>`),
      inPatch(`<b title="${'>'.repeat(50)}" other='<a><a>'/>`),
      inPatch('&#0;'),
      inPatch('&#xD800;'),
      inPatch('&amp'),
      inPatch('<a></b>'),
      `\uFEFF<D:propfind ${DAV_NS}><D:allprop/></D:propfind>`,
      `<?xml version="1.0" encoding="UTF-16"?><D:propfind ${DAV_NS}><D:allprop/></D:propfind>`,
    ),
  },
  {
    // Entities: exponential expansion, an external entity, a parameter entity.
    weight: 1,
    arbitrary: fc.constantFrom(
      `${ENTITY_LAUGHS}${inPatch('&d;')}`,
      `<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>${inPatch('&x;')}`,
      `<!DOCTYPE d [<!ENTITY % p SYSTEM "http://127.0.0.1/evil.dtd"> %p;]>${inPatch('x')}`,
      `<!-- a comment first -->${ENTITY_LAUGHS}<D:propfind ${DAV_NS}><D:allprop/></D:propfind>`,
    ),
  },
  {
    // Depth (the issue's 140,000 levels, and either side of the limit), width and size.
    weight: 2,
    arbitrary: fc.constantFrom<string | Big>(
      new Big('nesting', 'element', 140_000, PATCH_OPEN, PATCH_CLOSE),
      new Big('nesting', 'element', 28, PATCH_OPEN, PATCH_CLOSE),
      new Big('nesting', 'element', 29, PATCH_OPEN, PATCH_CLOSE),
      new Big('nesting', 'element', 5_000, `<D:lockinfo ${DAV_NS}><D:owner>`, '</D:owner></D:lockinfo>'),
      new Big('string', '<Z:p/>', 100_000, `<D:propfind ${DAV_NS}><D:prop>`, '</D:prop></D:propfind>'),
      new Big('string', '<Z:p/>', 2_000, `<D:propfind ${DAV_NS}><D:prop>`, '</D:prop></D:propfind>'),
      new Big(
        'string',
        '<Z:p>v</Z:p>',
        15_000,
        `<D:propertyupdate ${DAV_NS}><D:set><D:prop>`,
        '</D:prop></D:set></D:propertyupdate>',
      ),
      new Big('string', 'v', 16 * 1024, PATCH_OPEN, PATCH_CLOSE),
      new Big('string', 'v', 200_000, PATCH_OPEN, PATCH_CLOSE),
      new Big('string', 'v', 2_000_000, PATCH_OPEN, PATCH_CLOSE),
    ),
  },
  {
    // Hostile text as a value and as a property's name.
    weight: 2,
    arbitrary: fc.oneof(
      fc
        .oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ unit: 'binary', maxLength: 60 }), bigString)
        .map((value) => inPatch(toText(value))),
      fc
        .constantFrom(...HOSTILE_STRINGS)
        .map(
          (name) =>
            `<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><${name} xmlns="urn:x">v</${name}></D:prop></D:set></D:propertyupdate>`,
        ),
    ),
  },
);

/** Mostly one of the valid values, sometimes one of the hostile ones. */
const mostly = <T>(valid: T[], hostile: T[]) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...valid), weight: 4 },
    { arbitrary: fc.constantFrom(...hostile), weight: 1 },
  );

/**
 * WebDAV's request headers, each present or not, mostly valid so that bodies get read, sometimes
 * malformed or oversized.
 */
function davHeaders(folder: string): fc.Arbitrary<Record<string, string | Big>> {
  const at = `/dav/files/${encodeSegment(folder)}`;
  return fc
    .record(
      {
        depth: mostly(['0', '1', 'infinity'], ['2', '', '-1']),
        destination: fc.oneof(
          mostly(
            [`${at}/copied.txt`, `${at}/moved/`, `${at}/readable.txt`],
            [
              '/dav/files/',
              '/dav/shared/x/y.txt',
              'http://elsewhere.example/dav/files/x.txt',
              '/api/ping',
              '%zz',
              '',
            ],
          ),
          hostileSegment.map((segment) => `${at}/${segment}`),
        ),
        overwrite: mostly(['T', 'F'], ['maybe']),
        // Rare: an If header that names no lock fails most requests before their body is read.
        if: fc.oneof(
          { arbitrary: fc.constant(undefined), weight: 4 },
          mostly<string | Big>(
            ['(<opaquelocktoken:none>)', '(Not <opaquelocktoken:none>)', `<${at}/readable.txt> (["etag"])`],
            ['(', '(<a', new Big('string', '(<opaquelocktoken:x> ["e"])', 200)],
          ),
        ),
        timeout: mostly(['Second-1', 'Infinite, Second-4100000000'], ['Second-99999999999', 'x']),
        'lock-token': mostly(['<opaquelocktoken:none>'], ['<', 'opaquelocktoken:x', '']),
      },
      { requiredKeys: [] },
    )
    .map(
      (headers) =>
        Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined)) as Record<
          string,
          string | Big
        >,
    );
}

/** The WebDAV trees: /dav/, and Nextcloud's addresses of the same files (/remote.php/webdav/, /remote.php/dav/files/{user}/). */
const WEBDAV_TREES = /^\/(dav|remote\.php\/webdav|remote\.php\/dav\/files\/:user)(\/|$)/;

/**
 * Requests for a WebDAV method: signed in with the actor's app password (anonymous with none), at
 * the actor's own seeded files (in Nextcloud's layout under its address, someone else's address
 * too), with WebDAV's headers and XML bodies.
 */
function davCases(route: ServedRoute, seed: Seed): fc.Arbitrary<FuzzCase> {
  return fc.constantFrom(...FUZZ_ACTORS).chain((actor) => {
    const self = actor === 'owner' || actor === 'stranger' ? seed[actor] : null;
    const folder = (self ?? seed.owner).dav.folder;
    const authorization: Record<string, string> = self
      ? {
          authorization: `Basic ${Buffer.from(`${self.user.email}:${self.dav.password}`).toString('base64')}`,
        }
      : {};
    const nextcloud = route.url.startsWith('/remote.php/')
      ? route.url.startsWith('/remote.php/webdav')
        ? '/remote.php/webdav'
        : `/remote.php/dav/files/${encodeSegment((self ?? seed.owner).user.email)}`
      : null;
    const at = nextcloud ? `${nextcloud}/${encodeSegment(folder)}` : `/dav/files/${encodeSegment(folder)}`;
    return fc.record({
      actor: fc.constant(actor),
      method: fc.constant(route.method),
      path: fc.oneof(
        fc.constantFrom(
          `${at}/readable.txt`,
          `${at}/lockable.txt`,
          `${at}/`,
          `${at}/new.txt`,
          ...(nextcloud
            ? [
                `${nextcloud}/`,
                `${nextcloud}/${encodeSegment(seed.owner.dav.team)}/readable.txt`,
                `/remote.php/dav/files/${encodeSegment(seed.admin.user.email)}/`,
              ]
            : [
                '/dav/files/',
                '/dav/',
                '/dav/shared/',
                `/dav/shared/${encodeSegment(seed.owner.dav.team)}/readable.txt`,
              ]),
        ),
        hostileSegment.map((segment) => `${at}/${segment}`),
      ),
      query: fc.constant(''),
      headers: fc
        .tuple(davHeaders(folder), fc.oneof({ arbitrary: fc.constant({}), weight: 3 }, headersArbitrary))
        .map(([dav, other]) => ({ ...other, ...dav, ...authorization })),
      body: fc.option(
        fc.record({
          raw: davXml,
          contentType: fc.constantFrom('application/xml; charset=utf-8', 'text/xml', 'text/plain'),
        }),
        { nil: undefined, freq: 5 },
      ),
    });
  });
}

/** Requests for one route: its schema's values, mutated, and hostile everything around them. */
export function fuzzCases(
  route: ServedRoute,
  operation: OpenApiOperation | undefined,
  seed: Seed,
): fc.Arbitrary<FuzzCase> {
  if (WEBDAV_TREES.test(route.url)) return davCases(route, seed);
  const overridable = OVERRIDABLE_METHODS.includes(route.method);
  const cases = fc.record({
    actor: fc.constantFrom(...FUZZ_ACTORS),
    // A PATCH/PUT/DELETE also goes as the POST that stands for it, with any `_method` in the body.
    method: overridable ? fc.constantFrom(route.method, 'POST') : fc.constant(route.method),
    path: pathArbitrary(route, operation, seed),
    query: queryArbitrary(operation),
    headers: headersArbitrary,
    body: bodyArbitrary(route, operation),
  });
  return SIGNED_IN_WITH_BASIC.test(route.url) ? signedInToOcs(cases, seed) : cases;
}

/**
 * The routes past Basic sign-in with an app password: OCS, Nextcloud's trash, versions and previews,
 * and the sync clients' chunked and bulk uploads.
 */
const SIGNED_IN_WITH_BASIC =
  /^\/(ocs|remote\.php\/dav\/(trashbin|versions|uploads)|index\.php\/core)\/|^\/remote\.php\/dav\/bulk$/;

/**
 * OCS calls carry Nextcloud's header and the actor's app password, so the cases reach past sign-in
 * to the handlers; a generated header of the same name still wins.
 */
function signedInToOcs(cases: fc.Arbitrary<FuzzCase>, seed: Seed): fc.Arbitrary<FuzzCase> {
  return cases.map((fuzzCase) => {
    const self = fuzzCase.actor === 'owner' || fuzzCase.actor === 'stranger' ? seed[fuzzCase.actor] : null;
    const authorization = self
      ? `Basic ${Buffer.from(`${self.user.email}:${self.dav.password}`).toString('base64')}`
      : undefined;
    return {
      ...fuzzCase,
      headers: { 'ocs-apirequest': 'true', ...(authorization ? { authorization } : {}), ...fuzzCase.headers },
    };
  });
}

function multipartPayload(spec: MultipartSpec): { payload: Buffer; contentType: string } {
  const boundary = 'fuzz0boundary';
  const declared = {
    declared: `multipart/form-data; boundary=${boundary}`,
    other: 'multipart/form-data; boundary=somethingelse',
    absent: 'multipart/form-data',
    quoted: `multipart/form-data; boundary="${boundary}"; charset=utf-8`,
    overlong: `multipart/form-data; boundary=${'b'.repeat(5_000)}`,
  }[spec.boundary];
  const pieces: Buffer[] = [];
  const field = (name: string, value: string) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  for (const part of spec.parts) {
    if ('field' in part) {
      pieces.push(field(toText(part.field), toText(part.value)));
    } else {
      pieces.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${toText(part.file)}"; filename="${toText(part.filename)}"\r\n` +
            'Content-Type: application/octet-stream\r\n\r\n',
        ),
        Buffer.alloc(part.bytes, 0x61),
        Buffer.from('\r\n'),
      );
    }
  }
  for (let i = 0; i < spec.floodFields; i++) pieces.push(field(`f${i}`, 'x'));
  if (spec.terminated) pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(pieces), contentType: declared };
}

/** What the server answered; status 0 when it cut off a body over a limit without an answer. */
export interface FuzzAnswer {
  status: number;
  body: string;
}

/** A request unanswered this long has stalled: that is a failure too. */
const ANSWER_TIMEOUT_MS = 30_000;
/** Answers are read whole but kept only this far, for the failure message. */
const KEPT_BODY_BYTES = 2_000;

function overHttp(
  origin: URL,
  method: string,
  path: string,
  headers: Record<string, string>,
  payload: Buffer,
): Promise<FuzzAnswer> {
  return new Promise((resolve, reject) => {
    // A server may refuse a body over a limit before reading it all (413) and close the connection
    // while it is still being sent or answered; anything smaller must be answered in full.
    const cutOff = (error: Error) =>
      payload.length > BODY_LIMIT.form ? resolve({ status: 0, body: String(error) }) : reject(error);
    const request = httpRequest(
      // A connection of its own, so a connection the server closes after one case cannot fail the next.
      { host: origin.hostname, port: origin.port, method, path, headers, agent: false },
      (response) => {
        const kept: Buffer[] = [];
        let length = 0;
        response.on('data', (chunk: Buffer) => {
          if (length < KEPT_BODY_BYTES) kept.push(chunk);
          length += chunk.length;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(kept).toString('utf8') }),
        );
        response.on('error', cutOff);
      },
    );
    request.setTimeout(ANSWER_TIMEOUT_MS, () => {
      reject(new Error(`no answer within ${ANSWER_TIMEOUT_MS / 1000} s`));
      request.destroy();
    });
    request.on('error', cutOff);
    request.end(payload);
  });
}

/** Header values go out as their UTF-8 bytes, as a client that sends non-ASCII text does. */
const asBytes = (value: string) => Buffer.from(value, 'utf8').toString('latin1');

/**
 * Sends a case over real HTTP as its actor: a fresh session each time (so a sign-out cannot carry
 * into the next case) with the XSRF token a browser would echo.
 */
export async function sendCase(
  app: FastifyInstance,
  origin: URL,
  seed: Seed,
  fuzzCase: FuzzCase,
): Promise<FuzzAnswer> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(fuzzCase.headers)) headers[name] = asBytes(toText(value));
  let payload: Buffer = Buffer.alloc(0);
  const { body } = fuzzCase;
  if (body && 'json' in body) {
    payload = Buffer.from(toJson(body.json));
    headers['content-type'] = 'application/json';
  } else if (body && 'raw' in body) {
    payload = Buffer.from(toText(body.raw));
    headers['content-type'] = body.contentType;
  } else if (body) {
    const form = multipartPayload(body.multipart);
    payload = form.payload;
    headers['content-type'] = form.contentType;
  }
  if (body) headers['content-length'] = String(payload.length);
  // A cookie of the case's own replaces the session.
  if (headers.cookie === undefined) {
    const { agent } = await actorFor(app, seed, fuzzCase.actor);
    const xsrfName = xsrfCookieName(app.deps.env.appUrl);
    const session = agent.cookie(SESSION_COOKIE);
    const xsrf = agent.cookie(xsrfName);
    headers.cookie = [session && `${SESSION_COOKIE}=${session}`, xsrf && `${xsrfName}=${xsrf}`]
      .filter(Boolean)
      .join('; ');
    if (xsrf && headers['x-xsrf-token'] === undefined) headers['x-xsrf-token'] = xsrf;
  }
  const path = fuzzCase.query ? `${fuzzCase.path}?${fuzzCase.query}` : fuzzCase.path;
  return overHttp(origin, fuzzCase.method, path, headers, payload);
}
