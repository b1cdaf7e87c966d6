import type { AvatarSize } from '@atelier/contracts';
import type { Readable } from 'node:stream';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { newStorageKey, StorageNotFoundError } from '../../storage/storage';
import type { StorageProvider } from '../../storage/storage-provider';
import type { UsersRepository } from '../users/users.repository';
import { avatarType, encodeAvatar } from './avatar.images';

const SIZES: AvatarSize[] = ['xs', 'sm', 'md'];

function objectKey(avatar: string, size: AvatarSize): string {
  return `${avatar}-${size}`;
}

/** Every stored size of an avatar. */
export const avatarObjectKeys = (avatar: string) => SIZES.map((size) => objectKey(avatar, size));

/** Uploaded avatars: every size stored under one new key per upload, served to anyone who has its URL. */
export class AvatarService {
  constructor(
    private readonly users: UsersRepository,
    private readonly storage: StorageProvider,
  ) {}

  /** Stores the image's sizes and makes them the user's avatar; the previous one's objects go. */
  async replace(user: UserRow, image: Buffer): Promise<UserRow> {
    await avatarType(image);
    const sizes = await encodeAvatar(image);
    const storage = await this.storage.current();
    const avatar = newStorageKey();
    try {
      await Promise.all(
        SIZES.map((size) => storage.put(objectKey(avatar, size), sizes[size], { contentType: 'image/webp' })),
      );
    } catch (error) {
      await storage.deleteMany(avatarObjectKeys(avatar));
      throw error;
    }
    await this.users.update(user.id, { avatar });
    if (user.avatar) await storage.deleteMany(avatarObjectKeys(user.avatar));
    return { ...user, avatar };
  }

  /** Back to the letter avatar; the stored sizes are deleted. */
  async remove(user: UserRow): Promise<UserRow> {
    if (!user.avatar) return user;
    await this.users.update(user.id, { avatar: null });
    await (await this.storage.current()).deleteMany(avatarObjectKeys(user.avatar));
    return { ...user, avatar: null };
  }

  /** One size of an avatar some user has now; any other key is 404, so no other object is reachable. */
  async open(avatar: string, size: AvatarSize): Promise<Readable> {
    if (!(await this.users.existsAvatar(avatar))) throw new AppError('not_found', 'errors.not_found');
    try {
      return await (await this.storage.current()).get(objectKey(avatar, size));
    } catch (error) {
      if (error instanceof StorageNotFoundError) throw new AppError('not_found', 'errors.not_found');
      throw error;
    }
  }
}
