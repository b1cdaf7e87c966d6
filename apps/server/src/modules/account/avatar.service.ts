import type { AvatarSize } from '@atelier/contracts';
import type { Readable } from 'node:stream';
import type { UnitOfWork } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newStorageKey, StorageNotFoundError } from '../../storage/storage';
import type { StorageProvider } from '../../storage/storage-provider';
import { objectAt, type StoragePurges } from '../files/storage-purges';
import type { UploadService } from '../files/upload.service';
import type { UsersRepository } from '../users/users.repository';
import { avatarType, encodeAvatar } from './avatar.images';

const SIZES: AvatarSize[] = ['xs', 'sm', 'md'];

function objectKey(avatar: string, size: AvatarSize): string {
  return `${avatar}-${size}`;
}

/** Every stored size of an avatar. */
const avatarObjectKeys = (avatar: string) => SIZES.map((size) => objectKey(avatar, size));

export interface AvatarServiceDeps {
  users: UsersRepository;
  storage: StorageProvider;
  /** Stores a new avatar's sizes, held until the user's row names them. */
  uploads: Pick<UploadService, 'storeNamed'>;
  /** The objects of the avatar a change lets go, deleted once it commits. */
  purges: Pick<StoragePurges, 'discard'>;
  units: UnitOfWork;
}

/** Uploaded avatars: every size stored under one new key per upload, served to anyone who has its URL. */
export class AvatarService {
  constructor(private readonly deps: AvatarServiceDeps) {}

  /** Whether any account's avatar is stored. */
  holdsAny(): Promise<boolean> {
    return this.deps.users.holdsAnyAvatar();
  }

  /**
   * Stores the image's sizes and makes them the user's avatar; the previous one's objects go. Sizes
   * no row names (the change failed, its process was killed) are deleted too (UploadService.storeNamed).
   */
  async replace(user: UserRow, image: Buffer): Promise<UserRow> {
    await avatarType(image);
    const sizes = await encodeAvatar(image);
    const avatar = newStorageKey();
    await this.deps.uploads.storeNamed(
      user.id,
      SIZES.map((size) => ({ key: objectKey(avatar, size), body: sizes[size], contentType: 'image/webp' })),
      () => this.swap(user.id, avatar),
    );
    return { ...user, avatar };
  }

  /** Back to the letter avatar; the stored sizes are deleted. */
  async remove(user: UserRow): Promise<UserRow> {
    await this.deps.units.transaction(() => this.swap(user.id, null));
    return { ...user, avatar: null };
  }

  /**
   * In the caller's unit of work: `avatar` becomes the user's, and the objects of the one it
   * replaces, read from the row under its lock (a request's copy may be stale: a second tab's upload),
   * are recorded with the job that deletes them once the unit commits.
   */
  private async swap(userId: string, avatar: string | null): Promise<void> {
    const current = await this.deps.users.lockAvatar(userId);
    if (!current) throw new AppError('not_found', 'errors.not_found');
    if (current.avatar === avatar) return;
    await this.deps.users.update(userId, { avatar });
    if (current.avatar) await this.deps.purges.discard(avatarObjectKeys(current.avatar).map(objectAt));
  }

  /**
   * The stored sizes of the account's avatar as it is now, for its deletion in the caller's unit of
   * work: the row stays locked until that ends, so no avatar the account gets meanwhile is left out.
   */
  async lockedObjectKeys(userId: string): Promise<string[]> {
    const current = await this.deps.users.lockAvatar(userId);
    return current?.avatar ? avatarObjectKeys(current.avatar) : [];
  }

  /** One size of an avatar some user has now; any other key is 404, so no other object is reachable. */
  async open(avatar: string, size: AvatarSize): Promise<Readable> {
    if (!(await this.deps.users.existsAvatar(avatar))) throw new AppError('not_found', 'errors.not_found');
    try {
      return await (await this.deps.storage.current()).get(objectKey(avatar, size));
    } catch (error) {
      if (error instanceof StorageNotFoundError) throw new AppError('not_found', 'errors.not_found');
      throw error;
    }
  }
}
