import { mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { AdminSetupBody, AppSetupBody } from '@atelier/contracts';
import { pino } from 'pino';
import type { z } from 'zod';
import { resolveDatabaseUrl } from '../db/database-url';
import { DatabaseUnavailableError, openPreparedDatabase } from '../db/prepare';
import { ConfigError, parseEnv } from '../env';
import { closeServices, createServices } from '../services';

const USAGE = `Usage: npm run setup -- --admin-email E --admin-password P [options]

Installs Atelier without the browser wizard; running it again on an installed instance changes nothing.
The database, storage and mail come from the environment (DATABASE_URL, STORAGE_DRIVER, SMTP_URL...).

  --admin-email E            e-mail of the first admin (required)
  --admin-password P         password of the first admin, 8 characters or more (required)
  --admin-name N             display name of the admin (default: Admin)
  --title T                  application name (default: Atelier)
  --description D            application description
  --contact-email E          where the contact form sends messages (default: the admin e-mail)
  --subscription-type T      none | fixed | metered (default: none)
  --registration yes|no      allow visitors to sign up (default: yes)
  --storage-limitation yes|no  enforce a storage capacity per user (default: yes)
  --default-storage GB       capacity per user in GB (default: 5)
  --default-team-members N   team members per user, -1 for unlimited (default: -1)
  --purchase-code CODE       licence code (optional)`;

const yes = (v: string | undefined, fallback: boolean) =>
  v === undefined ? fallback : /^(1|true|yes|on)$/i.test(v);

class UsageError extends Error {}

function formatIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
}

/** The non-interactive install; returns what it did in one line. */
export async function runSetup(argv: string[], source: NodeJS.ProcessEnv = process.env): Promise<string> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
      'admin-name': { type: 'string' },
      title: { type: 'string' },
      description: { type: 'string' },
      'contact-email': { type: 'string' },
      'subscription-type': { type: 'string' },
      registration: { type: 'string' },
      'storage-limitation': { type: 'string' },
      'default-storage': { type: 'string' },
      'default-team-members': { type: 'string' },
      'purchase-code': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help || !values['admin-email'] || !values['admin-password']) throw new UsageError(USAGE);

  const adminInput = AdminSetupBody.safeParse({
    name: values['admin-name'] ?? 'Admin',
    email: values['admin-email'],
    password: values['admin-password'],
    password_confirmation: values['admin-password'],
  });
  if (!adminInput.success) throw new UsageError(`Invalid admin: ${formatIssues(adminInput.error)}`);
  const appInput = AppSetupBody.safeParse({
    title: values.title ?? 'Atelier',
    description: values.description ?? '',
    contactEmail: values['contact-email'] ?? adminInput.data.email,
    subscriptionType: values['subscription-type'] ?? 'none',
    registration: yes(values.registration, true),
    storageLimitation: yes(values['storage-limitation'], true),
    defaultStorage: values['default-storage'] ?? 5,
    defaultTeamMembers: values['default-team-members'] ?? -1,
  });
  if (!appInput.success) throw new UsageError(`Invalid option: ${formatIssues(appInput.error)}`);

  const env = parseEnv(source);
  mkdirSync(env.dataDir, { recursive: true });
  const choice = resolveDatabaseUrl(env);
  const database = await openPreparedDatabase(choice.url);
  const deps = createServices({ env, database, databasePinned: choice.pinned }, pino({ level: 'silent' }));
  try {
    if (await deps.setup.isInstalled())
      return `Atelier is already installed (${database.label}); nothing changed.`;
    if (values['purchase-code']) await deps.setup.savePurchaseCode(values['purchase-code']);
    await deps.setup.configureApp(appInput.data);
    const admin = await deps.setup.createAdmin(adminInput.data);
    return `Atelier is installed (${database.label}); sign in at ${env.appUrl} as ${admin.email}.`;
  } finally {
    await closeServices(deps);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runSetup(process.argv.slice(2)).then(
    (message) => console.log(message),
    (error: unknown) => {
      console.error(
        error instanceof UsageError ||
          error instanceof ConfigError ||
          error instanceof DatabaseUnavailableError
          ? error.message
          : error,
      );
      process.exit(1);
    },
  );
}
