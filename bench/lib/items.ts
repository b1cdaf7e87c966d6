import { sql } from 'kysely';
import type { BenchApp } from './atelier-app';

/**
 * Inserts `count` rows into one folder in a single statement: a generated series on either dialect.
 * Items without bytes: what listings read, not what downloads serve.
 */
export async function seed(
  atelier: BenchApp,
  parentId: string,
  type: 'file' | 'folder',
  count: number,
  tag: number,
) {
  const { db, dialect } = atelier.app.deps.database;
  const user = atelier.userId;
  const statement =
    dialect === 'sqlite'
      ? sql`with recursive n(i) as (select 0 union all select i + 1 from n where i < ${count - 1})
          insert into items (id, user_id, parent_id, type, name, sort_name, mimetype, size, storage_key, created_at, updated_at)
          select printf('%08x-0000-4000-8000-%012x', ${tag}, i), ${user}, ${parentId}, ${type},
            ${type} || '-' || i || '.jpg', ${type} || '-' || i || '.jpg',
            case when ${type} = 'file' then 'image/jpeg' end, (i * 7919) % 1000003, null,
            strftime('%Y-%m-%dT%H:%M:%fZ', '2024-01-01', '+' || i || ' seconds'),
            strftime('%Y-%m-%dT%H:%M:%fZ', '2024-06-01', '+' || ((i * 31) % ${count}) || ' seconds')
          from n`
      : sql`insert into items (id, user_id, parent_id, type, name, sort_name, mimetype, size, storage_key, created_at, updated_at)
          select (lpad(to_hex(${tag}::int), 8, '0') || '-0000-4000-8000-' || lpad(to_hex(i), 12, '0')), ${user}, ${parentId}, ${type},
            ${type} || '-' || i || '.jpg', ${type} || '-' || i || '.jpg',
            case when ${type} = 'file' then 'image/jpeg' end, (i * 7919) % 1000003, null,
            timestamptz '2024-01-01T00:00:00Z' + i * interval '1 second',
            timestamptz '2024-06-01T00:00:00Z' + ((i * 31) % ${count}) * interval '1 second'
          from generate_series(0, ${count - 1}::int) as i`;
  await statement.execute(db);
}

/** A folder at the user's root, made through the API. */
export async function folder(atelier: BenchApp, name: string): Promise<string> {
  const res = await fetch(`${atelier.url}/api/create-folder`, {
    method: 'POST',
    headers: { ...atelier.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  return ((await res.json()) as { data: { id: string } }).data.id;
}

/**
 * The planner statistics a live instance has once seeded rows settle: PostgreSQL's autovacuum
 * analyzes the table (and sets the visibility map index-only scans need); SQLite keeps none, as
 * Atelier never runs ANALYZE there (with its STAT4 samples, every statement is compiled again each
 * time a value is bound to it: 4x the cost of a folder page's statement, docs/performance.md).
 */
export async function settle(atelier: BenchApp): Promise<void> {
  const { db, dialect } = atelier.app.deps.database;
  if (dialect === 'postgres') await sql`vacuum analyze items`.execute(db);
}
