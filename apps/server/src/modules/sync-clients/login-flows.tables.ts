import type { Insertable, Selectable } from 'kysely';

/** A sync client's sign-in through the browser (migration 0042); only its tokens' hashes are kept. */
export interface LoginFlowsTable {
  id: string;
  poll_token_hash: string;
  login_token_hash: string;
  /** What the client said it is, shown to the person asked to grant it. */
  user_agent: string;
  /** The account that granted it; null while nobody has. */
  user_id: string | null;
  created_at: string;
  expires_at: string;
}

export type LoginFlowRow = Selectable<LoginFlowsTable>;
export type NewLoginFlow = Insertable<LoginFlowsTable>;

declare module '../../db/schema' {
  interface DB {
    login_flows: LoginFlowsTable;
  }
}
