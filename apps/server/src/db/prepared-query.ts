import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database, Dialect } from './database';
import type { DB } from './schema';

interface Prepared<Row> {
  query: CompiledQuery<Row>;
  /** For each of the compiled query's parameters, the name of the value it takes. */
  slots: string[];
}

/** Stands in for a named value while the query is built; never a value anyone stores. */
const placeholder = (name: string) => `\u0000prepared:${name}\u0000`;

/**
 * A query built and compiled once per SQL dialect, then run with each call's values. Kysely builds
 * and compiles its query tree on every call, which on the hottest reads (every request's session,
 * every cached page's folder) cost more CPU than the database's own work. `build` gets a stand-in for
 * each named value and must pass every one as a bound value (not inlined, not transformed, nothing
 * decided by its content): the first run checks that each appears among the compiled parameters,
 * and that every parameter is one of them. Kysely plugins' query transforms do not apply to it.
 */
export function preparedQuery<Values extends Record<string, unknown>, Row>(
  build: (db: Kysely<DB>, values: Values) => Compilable<Row>,
): (database: Database, values: Values) => Promise<Row[]> {
  const compiled = new Map<Dialect, Prepared<Row>>();

  const prepare = (database: Database): Prepared<Row> => {
    const names = new Set<string>();
    const standIns = new Proxy({} as Values, {
      get: (_, name) => {
        names.add(String(name));
        return placeholder(String(name));
      },
    });
    const query = build(database.db, standIns).compile();
    const byPlaceholder = new Map([...names].map((name) => [placeholder(name), name]));
    const slots = query.parameters.map((parameter) => {
      const name = typeof parameter === 'string' ? byPlaceholder.get(parameter) : undefined;
      if (name === undefined) throw new Error(`a prepared query binds a value of its own: ${query.sql}`);
      return name;
    });
    const missing = [...names].filter((name) => !slots.includes(name));
    if (missing.length > 0 || query.sql.includes('\u0000'))
      throw new Error(`a prepared query does not bind ${missing.join(', ') || 'a value'}: ${query.sql}`);
    return { query, slots };
  };

  return async (database, values) => {
    const db = database.db;
    // A plugin (the tests' statement counter) sees each query as Kysely builds it: built afresh then.
    if (db.getExecutor().plugins.length > 0) return (await db.executeQuery(build(db, values))).rows;
    let prepared = compiled.get(database.dialect);
    if (!prepared) {
      prepared = prepare(database);
      compiled.set(database.dialect, prepared);
    }
    const { query, slots } = prepared;
    // Run on the current handle: inside a unit of work, its transaction.
    const result = await db.executeQuery<Row>({
      ...query,
      parameters: slots.map((name) => values[name]),
    });
    return result.rows;
  };
}
