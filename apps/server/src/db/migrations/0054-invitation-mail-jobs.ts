import type { Kysely } from 'kysely';

/**
 * `team_invitations.mailed_by_job`: the job that e-mails the invitation. A folder that goes to the
 * trash and comes back while its invitation's e-mail waits queues a second job for it; the first job
 * to run claims the e-mail, its retries keep it, and any other job for the invitation sends nothing,
 * so the invitee gets one e-mail whose link works.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('team_invitations').addColumn('mailed_by_job', 'text').execute();
}
