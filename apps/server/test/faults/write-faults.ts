import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/** What happens after the chosen write: an error thrown into the operation, or the process killed. */
export type Fault = 'throw' | 'kill';

/** Thrown into the operation after the chosen write, as a failing disk, network or bug would. */
export class InjectedFault extends Error {
  override name = 'InjectedFault';
}

interface Armed {
  /** Writes counted so far inside the armed operation. */
  writes: number;
  /** The write after which the fault strikes; 0 counts writes and strikes never. */
  after: number;
  fault: Fault;
}

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode']);

/**
 * A fault injected after the n-th write (insert, update or delete) an operation makes, whatever
 * module's repository makes it: the write reaches the database, then the operation fails. Only
 * queries of the armed operation count, not the workers and timers running beside it.
 */
export class WriteFaults implements KyselyPlugin {
  private readonly armed = new AsyncLocalStorage<Armed>();
  private readonly pending = new WeakMap<object, Armed>();

  /** Runs `operation`, striking after write `after` (0: never); answers how many writes it made. */
  async run(
    after: number,
    fault: Fault,
    operation: () => Promise<unknown>,
  ): Promise<{ writes: number; error: unknown }> {
    const armed: Armed = { writes: 0, after, fault };
    let error: unknown = null;
    try {
      await this.armed.run(armed, operation);
    } catch (caught) {
      error = caught;
    }
    return { writes: armed.writes, error };
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const armed = this.armed.getStore();
    if (armed && WRITES.has(node.kind)) this.pending.set(queryId, armed);
    return node;
  }

  async transformResult({ queryId, result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const armed = this.pending.get(queryId);
    if (!armed) return result;
    this.pending.delete(queryId);
    armed.writes += 1;
    if (armed.writes === armed.after) {
      if (armed.fault === 'kill') process.kill(process.pid, 'SIGKILL');
      throw new InjectedFault(`fault after write ${armed.writes}`);
    }
    return result;
  }
}
