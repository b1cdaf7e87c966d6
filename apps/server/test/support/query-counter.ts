import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/** A statement as its kind and the tables it names, in order: `select items folder_counts`. */
function described(node: RootOperationNode): string {
  const tables = [...JSON.stringify(node).matchAll(/"kind":"TableNode".*?"name":"(\w+)"/g)].map((m) => m[1]);
  return [node.kind.replace(/QueryNode$|Node$/, '').toLowerCase(), ...new Set(tables)].join(' ');
}

/**
 * Counts the statements (database round trips) an operation makes, whatever module's repository
 * makes them; only queries of the counted operation count, not the workers and timers beside it.
 */
export class QueryCounter implements KyselyPlugin {
  private readonly counting = new AsyncLocalStorage<string[]>();
  private readonly pending = new WeakMap<object, { statements: string[]; kind: string }>();

  /** Runs `operation` and answers it with the statements it ran, in order, each `described`. */
  async count<T>(operation: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    const statements: string[] = [];
    const result = await this.counting.run(statements, operation);
    return { result, statements };
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const statements = this.counting.getStore();
    if (statements) this.pending.set(queryId, { statements, kind: described(node) });
    return node;
  }

  async transformResult({ queryId, result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const counted = this.pending.get(queryId);
    if (counted) {
      this.pending.delete(queryId);
      counted.statements.push(counted.kind);
    }
    return result;
  }
}
