import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseAddressRanges } from './lib/public-address';
import { trimCharacters } from './lib/trim-characters';

/** Roles one process can play; `SERVICES=api,worker` (the default) runs both in one process. */
export const SERVICE_ROLES = ['api', 'worker'] as const;
export type ServiceRole = (typeof SERVICE_ROLES)[number];

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional());
const optionalText = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());
const redisPrefix = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only'),
);

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  if (rest.length > 0 || !isIP(address)) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128);
}

/**
 * Which X-Forwarded-For entries to believe: none (`false`, `0`, the default), the last N hops (a
 * count: `1` behind one reverse proxy), or the entries added by the listed proxy addresses and
 * subnets. `true` stays accepted and means one hop: trusting every hop would let a client choose its
 * own address by sending the header itself.
 */
const trustProxy = z
  .string()
  .default('false')
  .transform((raw, ctx): false | number | string[] => {
    const value = raw.trim().toLowerCase();
    if (value === '' || value === 'false' || value === 'no' || value === '0') return false;
    if (value === 'true' || value === 'yes') return 1;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const entries = value
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = entries.filter((e) => !isProxyAddress(e));
    if (bad.length === 0 && entries.length > 0) return entries;
    ctx.addIssue({
      code: 'custom',
      message: `must be false, a hop count or a list of proxy addresses (not ${bad.join(', ') || raw})`,
    });
    return z.NEVER;
  });

/** Private ranges remote upload may fetch from anyway (an intranet the operator trusts); none by default. */
const addressRanges = z
  .string()
  .default('')
  .transform((raw, ctx) => {
    try {
      return parseAddressRanges(raw);
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        message: `must be comma-separated CIDRs (${(error as Error).message})`,
      });
      return z.NEVER;
    }
  });

// The built web app sits beside this package: apps/server/dist -> apps/web/dist (also right from src/).
const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Every variable the server reads; docs/configuration.md documents each one. */
export const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    /** Unset: every interface, or only the loopback one when TRUST_PROXY is set (see parseEnv). */
    HOST: optionalText,
    APP_URL: optionalUrl,
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: optionalText.refine(
      (v) => v === undefined || /^(postgres(ql)?:\/\/|sqlite:|file:)/.test(v),
      'must start with postgres://, postgresql://, sqlite: or file:',
    ),
    STORAGE_DRIVER: z.enum(['local', 's3']).optional(),
    S3_ENDPOINT: optionalUrl,
    S3_REGION: optionalText,
    S3_BUCKET: optionalText,
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    S3_FORCE_PATH_STYLE: flag.default(true),
    REDIS_URL: optionalText.refine(
      (v) => v === undefined || /^rediss?:\/\//.test(v),
      'must start with redis://',
    ),
    /**
     * What every key and channel of this instance starts with in Redis (jobs, throttles, the change
     * bus, realtime events), so instances sharing one Redis keep apart.
     */
    REDIS_PREFIX: redisPrefix.optional(),
    /** The earlier name of REDIS_PREFIX, when it only kept the job queues apart. */
    REDIS_QUEUE_PREFIX: redisPrefix.optional(),
    SMTP_URL: optionalText.refine(
      (v) => v === undefined || /^smtps?:\/\//.test(v),
      'must start with smtp:// or smtps://',
    ),
    MAIL_FROM: optionalText,
    SERVICES: z
      .string()
      .default('api,worker')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.enum(SERVICE_ROLES)).min(1)),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    WEB_DIST_DIR: z.string().min(1).default(defaultWebDist),
    TRUST_PROXY: trustProxy,
    SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(6000),
    MAIL_RECIPIENTS_PER_DAY: z.coerce.number().int().min(1).default(100),
    ZIP_CONCURRENCY_PER_LINK: z.coerce.number().int().min(1).default(2),
    ZIP_CONCURRENCY_PER_CLIENT: z.coerce.number().int().min(1).default(2),
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1).default(20_000),
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
    HTTP_UPLOAD_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
    HTTP_UPLOAD_MIN_BYTES: z.coerce
      .number()
      .int()
      .min(0)
      .default(16 * 1024),
    MAX_REQUESTS_PER_CLIENT: z.coerce.number().int().min(1).default(64),
    MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(128),
    ATELIER_OPEN_BROWSER: flag.default(false),
    API_DOCS: z.preprocess((v) => (v === '' ? undefined : v), flag.optional()),
    REMOTE_UPLOAD_ALLOWED_PRIVATE_ADDRESSES: addressRanges,
    /** Payment providers' API addresses: their own by default; a proxy or a test peer otherwise. */
    STRIPE_API_URL: optionalUrl,
    PAYPAL_API_URL: optionalUrl,
    PAYSTACK_API_URL: optionalUrl,
  })
  .superRefine((env, ctx) => {
    if (env.STORAGE_DRIVER === 's3') {
      for (const key of ['S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (!env[key])
          ctx.addIssue({ code: 'custom', path: [key], message: 'is required when STORAGE_DRIVER=s3' });
      }
    }
  });

export type Env = Omit<z.infer<typeof EnvSchema>, 'HOST' | 'REDIS_PREFIX' | 'REDIS_QUEUE_PREFIX'> & {
  /** The interface to listen on: HOST, else 127.0.0.1 when TRUST_PROXY is set, else 0.0.0.0. */
  HOST: string;
  /** REDIS_PREFIX, else REDIS_QUEUE_PREFIX, else `atelier`. */
  REDIS_PREFIX: string;
  /** DATA_DIR made absolute. */
  dataDir: string;
  /** Public base URL, APP_URL or http://localhost:PORT. */
  appUrl: string;
  /** Whether /api/docs serves the API reference: API_DOCS, else everywhere but production. */
  apiDocs: boolean;
};

/** Parses the variables once; a bad value throws with one line naming every offending variable. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || 'environment'} ${i.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const { REDIS_QUEUE_PREFIX, ...env } = result.data;
  return {
    ...env,
    // Behind a trusted proxy, X-Forwarded-For names the client: a caller reaching the port directly
    // could write any address there, so unless told otherwise only the proxy on this machine may connect.
    HOST: env.HOST ?? (env.TRUST_PROXY === false ? '0.0.0.0' : '127.0.0.1'),
    dataDir: path.resolve(env.DATA_DIR),
    appUrl: trimCharacters(env.APP_URL ?? `http://localhost:${env.PORT}`, '/'),
    apiDocs: env.API_DOCS ?? env.NODE_ENV !== 'production',
    REDIS_PREFIX: env.REDIS_PREFIX ?? REDIS_QUEUE_PREFIX ?? 'atelier',
  };
}

export class ConfigError extends Error {}
