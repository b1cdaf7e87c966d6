import { sql, type Kysely } from 'kysely';

/**
 * Who may answer an invitation where registering does not verify addresses: `invitee_id` is the
 * account that had the invited address when the invitation was sent (existing invitations get it
 * from the accounts older than them), and `token_hash` the SHA-256 of the token in the invitation
 * e-mail's link, which proves the address for an account made later.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('team_invitations')
    .addColumn('invitee_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('team_invitations').addColumn('token_hash', 'text').execute();
  await sql`
    update team_invitations set invitee_id = (
      select users.id from users
      where users.email = team_invitations.email and users.created_at <= team_invitations.created_at
    )`.execute(db);
}
