import type { Database } from './database';

/** Content pages every instance starts with; an admin edits them later, so only missing ones are added. */
const DEFAULT_PAGES = [
  {
    slug: 'terms-of-service',
    title: 'Terms of Service',
    content:
      'By using this service you agree to store only content you have the right to store and share, and to keep your sign-in details private. The operator of this instance may suspend accounts that break these terms.',
  },
  {
    slug: 'privacy-policy',
    title: 'Privacy Policy',
    content:
      'This instance stores your account details and the files you upload so that it can provide the service. They are not sold or shared with third parties. You can ask the operator to delete your account and data at any time.',
  },
  {
    slug: 'cookie-policy',
    title: 'Cookie Policy',
    content:
      'This site uses two essential cookies: a session cookie that keeps you signed in and a security token that protects your requests. No tracking or advertising cookies are set.',
  },
];

/** Run while the database is prepared, before the app and its clock exist: the wall clock stamps them. */
export async function seedPages(database: Database): Promise<void> {
  const updated_at = new Date().toISOString();
  await database.db
    .insertInto('pages')
    .values(DEFAULT_PAGES.map((p) => ({ ...p, visibility: 1, updated_at })))
    .onConflict((oc) => oc.column('slug').doNothing())
    .execute();
}
