import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/**
 * Team folders: a folder of its owner that members reach with `can_edit` or `can_view`, and the
 * invitations that make someone a member once they accept, signed in with the invited address.
 * Dissolving a team removes its row; members and invitations go with it, the folder stays.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  await db.schema
    .createTable('team_folders')
    .addColumn('folder_id', 'text', (c) => c.primaryKey().references('items.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('team_folders_user_id_index').on('team_folders').column('user_id').execute();

  await db.schema
    .createTable('team_members')
    .addColumn('folder_id', 'text', (c) =>
      c.notNull().references('team_folders.folder_id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pkey', ['folder_id', 'user_id'])
    .execute();
  // Every call of a signed-in user about another's item looks up their memberships.
  await db.schema.createIndex('team_members_user_id_index').on('team_members').column('user_id').execute();

  await db.schema
    .createTable('team_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('folder_id', 'text', (c) =>
      c.notNull().references('team_folders.folder_id').onDelete('cascade'),
    )
    .addColumn('inviter_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** Lowercased: matched against the invitee's account e-mail. */
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('team_invitations_folder_id_index')
    .on('team_invitations')
    .column('folder_id')
    .execute();
  await db.schema
    .createIndex('team_invitations_email_index')
    .on('team_invitations')
    .column('email')
    .execute();
}
