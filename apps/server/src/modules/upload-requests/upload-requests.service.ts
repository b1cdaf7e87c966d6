import { en, ItemName, type CreateUploadRequestBody, type UploadRequestResource } from '@atelier/contracts';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { UnitOfWork } from '../../db/database';
import { AppError } from '../../lib/app-error';
import {
  folderIdOf,
  ItemAccess,
  notFound,
  ownerActor,
  uploadRequestActor,
  type Actor,
  type ActorResolver,
} from '../files/files.access';
import type { Readable } from 'node:stream';
import type { ItemReader } from '../files/files.ports';
import type { FilesService } from '../files/files.service';
import type { ChunkFields, ReceivedChunk, UploadService } from '../files/upload.service';
import type { I18nService } from '../i18n/i18n.service';
import type { MailRecipientQuota } from '../mail/mail-quota';
import type { MailTemplates } from '../mail/mail.templates';
import type { Mailer } from '../mail/mailer';
import type { NotificationsService } from '../notifications/notifications.service';
import type { UsersService } from '../users/users.service';
import { endedAt, presentUploadRequest, uploadRequestLink } from './upload-requests.presenter';
import type { OpenedUploadRequest, UploadRequestsRepository } from './upload-requests.repository';

const HOUR_MS = 3_600_000;
const DEFAULT_NAME_KEY = 'upload_request.default_name';

/** What the owner is told about a request: its first file arrived, or its outsider closed it. */
export type UploadRequestEvent = 'arriving' | 'filled';

export interface UploadRequestsDeps {
  requests: UploadRequestsRepository;
  items: ItemReader;
  files: FilesService;
  /** Files what an outsider sends, with the request's change and its owner's notice in the same unit. */
  uploads: Pick<UploadService, 'receive' | 'abandonAllOf'>;
  users: UsersService;
  /** Recipients a day each account may mail with its own text. */
  mailQuota: MailRecipientQuota;
  notifications: NotificationsService;
  mailer: Mailer;
  mails: MailTemplates;
  i18n: I18nService;
  /** A request's change and what tells its owner (notification, mail job) commit together. */
  units: UnitOfWork;
  /** Queues the owner's e-mail about an event, so a slow or failing mail server never fails an upload. */
  mailOwnerLater: (requestId: string, event: UploadRequestEvent) => Promise<void>;
  /** Queues the link's e-mail to the outsider, so a failing mail server never fails or doubles a request. */
  mailLinkLater: (requestId: string) => Promise<void>;
  appUrl: string;
  /** Who the caller is to the folder they would collect into: its owner, or a team's member (who may not). */
  actors: ActorResolver;
  /** The clock every expiry is checked against. */
  now: () => Date;
}

/** A call through a request's link: the outsider's confined actor, and the request. */
export interface UploadRequestVisit {
  actor: Actor;
  request: OpenedUploadRequest;
}

/**
 * Upload requests: the owner's side (create, list, close) and the outsider's, where every call with
 * the token is checked here (unknown 404; filled or expired 410) and becomes an actor that reaches
 * only what came through the request. The owner hears of the first file and of the close.
 */
export class UploadRequestsService {
  private readonly access: ItemAccess;

  constructor(private readonly deps: UploadRequestsDeps) {
    this.access = new ItemAccess(deps.items);
  }

  // ---- the owner's side --------------------------------------------------------------------

  /** A request into one of the owner's folders, or into a new folder of the root named after it. */
  async create(
    ownerId: string,
    body: z.output<typeof CreateUploadRequestBody>,
  ): Promise<UploadRequestResource> {
    const owner = ownerActor(ownerId);
    const now = this.deps.now();
    const id = randomUUID();
    // The new folder, the request and its link's e-mail commit together: a failure leaves none of them.
    await this.deps.units.transaction(async () => {
      let folder: { id: string; name: string };
      if (body.folder_id === null || body.folder_id === undefined) {
        const name = body.name ?? (await this.defaultFolderName(now));
        // A request of a name a folder has already gets a folder of its own all the same.
        folder = await this.deps.files.createFolder(owner, { name }, 'keep-both').then((made) => ({
          id: made.id,
          name: made.attributes.name,
        }));
      } else {
        const actor = await this.deps.actors.of(ownerId, [body.folder_id]);
        folder = await this.access.reachOneAsOwner(actor, body.folder_id, 'live', 'folder');
      }
      // Taken once the folder is known to be there (a refused request uses none of the day's mail),
      // inside the unit: a refused mailing leaves neither a request nor a folder behind.
      if (body.email) await this.deps.mailQuota.take(ownerId, 1);
      await this.deps.requests.insert({
        id,
        user_id: ownerId,
        folder_id: folder.id,
        name: body.name ?? folder.name,
        notes: body.notes || null,
        email: body.email ?? null,
        status: 'active',
        expires_at: new Date(now.getTime() + body.expires_in * HOUR_MS).toISOString(),
        filled_at: null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      });
      if (body.email) await this.deps.mailLinkLater(id);
    });
    return this.present((await this.deps.requests.find(id))!);
  }

  async list(ownerId: string): Promise<UploadRequestResource[]> {
    const now = this.deps.now();
    return (await this.deps.requests.listOwned(ownerId)).map((request) =>
      presentUploadRequest(request, { appUrl: this.deps.appUrl, now }),
    );
  }

  // ---- the token's side --------------------------------------------------------------------

  /** The request's page, for anyone with the link (its owner too), whatever its status. */
  async detail(token: string): Promise<UploadRequestResource> {
    const request = await this.open(token);
    const owner = await this.deps.users.findById(request.user_id);
    if (!owner) throw notFound();
    return this.present(request, owner);
  }

  /** Every call with the token but the detail: 404 unknown, 410 filled or expired, else the outsider's actor. */
  async visit(token: string): Promise<UploadRequestVisit> {
    const request = await this.open(token);
    const ended = endedAt(request, this.deps.now());
    if (ended) throw new AppError('gone', `upload_request.${ended}`);
    const actor = uploadRequestActor({
      id: request.id,
      ownerId: request.user_id,
      folderId: request.folder_id,
    });
    return { actor, request };
  }

  /**
   * Closes the request (the outsider's "I'm done", or its owner's close). The owner is told when the
   * outsider closes it; their own close needs no notice.
   */
  async close(token: string, callerId: string | null): Promise<void> {
    const { request, actor } = await this.visit(token);
    await this.deps.units.transaction(async () => {
      // Closed or expired meanwhile: the request is over either way, as this call asked.
      if (!(await this.deps.requests.close(request.id, this.deps.now().toISOString()))) return;
      if (callerId !== request.user_id)
        await this.tellOwner((await this.deps.requests.find(request.id))!, 'filled');
    });
    // What was on its way and can no longer arrive gives the owner's room back now.
    await this.deps.uploads.abandonAllOf(actor);
  }

  /**
   * A chunk the outsider sends. The file it completes is filed in one unit of work with what its
   * arrival changes: the first file moves the request to `filling` and tells the owner (their
   * notification and the job that mails them), so a failure leaves neither the file nor the notice.
   */
  receive(
    visit: UploadRequestVisit,
    clientKey: string,
    fields: ChunkFields,
    chunk: Readable,
  ): Promise<ReceivedChunk> {
    return this.deps.uploads.receive(visit.actor, clientKey, fields, chunk, () =>
      this.fileArrived(visit.request),
    );
  }

  /**
   * A file came through the request: the first one moves it to `filling` and tells the owner. The
   * request is read again as the file is filed: one closed or expired while its last chunk was on
   * its way takes nothing (410, the filing undone).
   */
  private async fileArrived(request: OpenedUploadRequest): Promise<void> {
    await this.deps.units.transaction(async () => {
      const now = this.deps.now();
      const current = await this.deps.requests.lockStatus(request.id);
      if (!current) throw notFound();
      const ended = endedAt({ ...request, ...current }, now);
      if (ended) throw new AppError('gone', `upload_request.${ended}`);
      if (await this.deps.requests.markFilling(request.id, now.toISOString()))
        await this.tellOwner(request, 'arriving');
    });
  }

  /** The owner's e-mail about an event (run by a job, retried if the mail server fails). */
  async mailOwner(requestId: string, event: UploadRequestEvent): Promise<void> {
    const request = await this.deps.requests.find(requestId);
    const owner = request && (await this.deps.users.findById(request.user_id));
    if (!request || !owner) return;
    await this.deps.mailer.send(
      await this.deps.mails.uploadRequestEvent(owner.email, event, {
        name: request.name,
        count: Number(request.received),
        link: `${this.deps.appUrl}/platform/files/${request.folder_id}`,
      }),
    );
  }

  // ---- shared ------------------------------------------------------------------------------

  /** A request as any call with its token first sees it: unknown, or its folder gone, is 404. */
  private async open(token: string): Promise<OpenedUploadRequest> {
    const request = folderIdOf(token) ? await this.deps.requests.find(token) : undefined;
    if (!request?.folder_live) throw notFound();
    return request;
  }

  private present(
    request: OpenedUploadRequest,
    owner?: { name: string; avatar: string | null },
  ): UploadRequestResource {
    return presentUploadRequest(request, { appUrl: this.deps.appUrl, now: this.deps.now(), owner });
  }

  /** A notification in the owner's centre now (live in their open tabs), and an e-mail through a job. */
  private async tellOwner(request: OpenedUploadRequest, event: UploadRequestEvent): Promise<void> {
    const t = (key: string) =>
      this.deps.i18n.translate(key, { name: request.name, count: Number(request.received) });
    await this.deps.notifications.notify(request.user_id, {
      category: 'file-request',
      title: await t(`notifications.file_request.${event}.title`),
      description: await t(`notifications.file_request.${event}.description`),
      action: {
        type: 'route',
        params: {
          route: 'Files',
          id: request.folder_id,
          button: await t('notifications.file_request.button'),
        },
      },
    });
    await this.deps.mailOwnerLater(request.id, event);
  }

  /** The link, the notes and the deadline, to the address the owner gave (the link's mail job). */
  /**
   * The new folder's name when the request names none: the instance's text, unless an admin's
   * translation of it is no name a folder may have (a slash, too long), then the shipped English.
   */
  private async defaultFolderName(now: Date): Promise<string> {
    const date = now.toISOString().slice(0, 10);
    const translated = ItemName.safeParse(await this.deps.i18n.translate(DEFAULT_NAME_KEY, { date }));
    return translated.success ? translated.data : en[DEFAULT_NAME_KEY]!.replace('{{date}}', date);
  }

  async mailLink(requestId: string): Promise<void> {
    const request = await this.deps.requests.find(requestId);
    if (!request?.email) return;
    // A request that ended before its e-mail could go out (closed, filled, expired) sends no dead link.
    if (endedAt(request, this.deps.now())) return;
    const owner = await this.deps.users.findById(request.user_id);
    await this.deps.mailer.send(
      await this.deps.mails.uploadRequest(request.email!, {
        owner: owner?.name ?? '',
        name: request.name,
        notes: request.notes ? `\n${request.notes}\n` : '',
        expiresAt: request.expires_at,
        link: uploadRequestLink(this.deps.appUrl, request.id),
      }),
    );
  }
}
