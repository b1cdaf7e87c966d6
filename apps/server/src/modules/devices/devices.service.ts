import type { SessionList } from '@atelier/contracts';
import { AppError } from '../../lib/app-error';
import { hashToken } from '../../lib/tokens';
import { presentDevice } from './devices.presenter';
import type { DevicesRepository } from './devices.repository';

export interface DevicesDeps {
  devices: DevicesRepository;
  /** Closes the realtime sockets of a session that was ended, on every API node. */
  disconnectSession: (sessionIdHash: string) => void;
  now: () => Date;
}

/** A user's signed-in devices (their sessions): listed, and ended one by one. */
export class DevicesService {
  constructor(private readonly deps: DevicesDeps) {}

  async list(userId: string, currentToken: string | undefined): Promise<SessionList> {
    const rows = await this.deps.devices.listForUser(userId, this.deps.now().toISOString());
    const current = currentToken ? hashToken(currentToken) : undefined;
    return { data: rows.map((row) => presentDevice(row, current)) };
  }

  /**
   * Ends the user's session named `publicId` and closes its sockets; someone else's or an unknown one
   * is 404. Returns whether it was the caller's own session, which the caller then signs out.
   */
  async end(
    userId: string,
    publicId: string,
    currentToken: string | undefined,
  ): Promise<{ current: boolean }> {
    const idHash = await this.deps.devices.findForUser(userId, publicId);
    if (!idHash) throw new AppError('not_found', 'errors.not_found');
    if (currentToken && idHash === hashToken(currentToken)) return { current: true };
    await this.deps.devices.delete(idHash);
    this.deps.disconnectSession(idHash);
    return { current: false };
  }
}
