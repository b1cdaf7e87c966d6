import type { LoginFlowDocument } from '@atelier/contracts';
import { randomUUID } from 'node:crypto';
import type { UnitOfWork } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { hashToken, randomToken } from '../../lib/tokens';
import type { AppPasswordsService } from '../app-passwords/app-passwords.service';
import type { UsersService } from '../users/users.service';
import { clientName } from './client-name';
import type { LoginFlowsRepository } from './login-flows.repository';

/** How long a client's sign-in may wait for the person, as Nextcloud's does. */
export const LOGIN_FLOW_TTL_MS = 20 * 60_000;
/** The longest User-Agent kept; a client's is a line, not a document. */
const USER_AGENT_MAX = 500;

/** The web app's page where the person grants a flow. */
export const loginFlowPage = (appUrl: string, loginToken: string) => `${appUrl}/login/v2/flow/${loginToken}`;

export interface LoginFlowsDeps {
  flows: LoginFlowsRepository;
  appPasswords: Pick<AppPasswordsService, 'create' | 'assertRoomFor'>;
  users: Pick<UsersService, 'findById'>;
  units: UnitOfWork;
  appUrl: string;
  now: () => Date;
}

/** `POST /index.php/login/v2`'s answer: what the client polls with, and the page it opens in the browser. */
export interface StartedLoginFlow {
  poll: { token: string; endpoint: string };
  login: string;
}

/** What the poll hands the client once: where, as whom, and the app password to sign in with. */
export interface LoginFlowCredentials {
  server: string;
  loginName: string;
  appPassword: string;
}

/**
 * Nextcloud's Login Flow v2: a sync client starts a flow and opens its page in the browser, where
 * the person signs in (second factor included, through the web app's own sign-in) and grants or
 * refuses it; the client's poll then receives a fresh app password, exactly once. Two tokens keep
 * the sides apart: whoever sees the page's address cannot poll, and the client cannot grant. Both
 * are kept only as hashes, and every flow ends after LOGIN_FLOW_TTL_MS. Anything unknown, waiting,
 * refused, taken or expired is the same 404.
 */
export class LoginFlowsService {
  constructor(private readonly deps: LoginFlowsDeps) {}

  async start(userAgent: string | undefined): Promise<StartedLoginFlow> {
    const now = this.deps.now();
    // Flows nobody finished are let go of here, so the table holds only the last minutes' flows.
    await this.deps.flows.deleteExpired(now.toISOString());
    const pollToken = randomToken();
    const loginToken = randomToken();
    await this.deps.flows.insert({
      id: randomUUID(),
      poll_token_hash: hashToken(pollToken),
      login_token_hash: hashToken(loginToken),
      user_agent: (userAgent ?? '').slice(0, USER_AGENT_MAX),
      user_id: null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + LOGIN_FLOW_TTL_MS).toISOString(),
    });
    return {
      poll: { token: pollToken, endpoint: `${this.deps.appUrl}/index.php/login/v2/poll` },
      login: loginFlowPage(this.deps.appUrl, loginToken),
    };
  }

  /** The waiting flow the page shows: which client asks, and until when. */
  async describe(loginToken: string): Promise<LoginFlowDocument> {
    const flow = await this.deps.flows.findWaiting(hashToken(loginToken), this.deps.now().toISOString());
    if (!flow) throw notFound();
    return {
      data: { client: clientName(flow.user_agent), user_agent: flow.user_agent, expires_at: flow.expires_at },
    };
  }

  /** The person lets the client in: its next poll gets an app password of theirs. */
  async grant(loginToken: string, user: UserRow): Promise<void> {
    // Said now, while the person is on the page, rather than to a client that cannot say why.
    await this.deps.appPasswords.assertRoomFor(user.id);
    if (!(await this.deps.flows.grant(hashToken(loginToken), user.id, this.deps.now().toISOString())))
      throw notFound();
  }

  /** The person turns the client away: the flow ends, and its poll stays 404. */
  async refuse(loginToken: string): Promise<void> {
    if (!(await this.deps.flows.deleteWaiting(hashToken(loginToken), this.deps.now().toISOString())))
      throw notFound();
  }

  /**
   * The client's poll: 404 until the person granted the flow, then the credentials once, in the
   * same unit of work that ends the flow and makes the app password, then 404 again.
   */
  /** Flows granted to the user that their client has not collected yet go (its password was replaced). */
  async forgetGrantsTo(userId: string): Promise<void> {
    await this.deps.flows.deleteGrantedTo(userId);
  }

  async poll(pollToken: string): Promise<LoginFlowCredentials> {
    const credentials = await this.deps.units.transaction(async () => {
      const flow = await this.deps.flows.claimGranted(hashToken(pollToken), this.deps.now().toISOString());
      if (!flow) return null;
      const { password } = await this.deps.appPasswords.create(flow.user_id!, {
        name: clientName(flow.user_agent),
      });
      return { userId: flow.user_id!, password };
    });
    const user = credentials && (await this.deps.users.findById(credentials.userId));
    if (!user) throw notFound();
    // Basic authentication signs in with the account's e-mail and the app password.
    return { server: this.deps.appUrl, loginName: user.email, appPassword: credentials.password };
  }
}

function notFound(): AppError {
  return new AppError('not_found', 'errors.not_found');
}
