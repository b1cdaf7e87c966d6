import type { AppPasswordResource } from '@atelier/contracts';
import type { AppPasswordRow } from './app-passwords.tables';

export function presentAppPassword(row: AppPasswordRow): AppPasswordResource {
  return {
    id: row.id,
    type: 'app_password',
    attributes: { name: row.name, created_at: row.created_at, last_used_at: row.last_used_at },
  };
}
