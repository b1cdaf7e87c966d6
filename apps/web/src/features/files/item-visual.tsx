import type { ThumbnailSize } from '@atelier/contracts';
import { Folder } from 'lucide-react';
import { createElement, useState } from 'react';
import { cn } from '../../lib/cn';
import type { FileItem } from './files-api';
import { extensionOf, fileIcon, thumbnailUrl } from './item-kind';
import { Emoji } from '../../components/emoji';

/** A folder in its colour (with its emoji), a thumbnail, or a file-type icon. */
export function ItemVisual({
  item,
  size,
  thumbnailFor = thumbnailUrl,
}: {
  item: FileItem;
  size: 'row' | 'card';
  /** Where the thumbnail is served (a share page reads it through the share's token). */
  thumbnailFor?: (item: FileItem, size: ThumbnailSize) => string | null;
}) {
  const [thumbnailFailed, setThumbnailFailed] = useState(false);
  const large = size === 'card';

  if (item.type === 'folder') {
    const colour = item.attributes.color ?? undefined;
    return (
      <span className={cn('relative grid shrink-0 place-items-center', large ? 'size-20' : 'size-10')}>
        <Folder
          className={cn('size-full fill-current', !colour && 'text-accent')}
          style={colour ? { color: colour } : undefined}
          strokeWidth={1.25}
          aria-hidden
        />
        {item.attributes.emoji && (
          <span
            className={cn(
              'absolute inset-x-0 text-center leading-none',
              large ? 'top-8 text-2xl' : 'top-3.5 text-sm',
            )}
            aria-hidden
          >
            <Emoji value={item.attributes.emoji} />
          </span>
        )}
      </span>
    );
  }

  const thumbnail = thumbnailFailed ? null : thumbnailFor(item, large ? 'sm' : 'xs');
  if (thumbnail) {
    return (
      <img
        src={thumbnail}
        alt=""
        loading="lazy"
        decoding="async"
        draggable={false}
        onError={() => setThumbnailFailed(true)}
        className={cn('shrink-0 bg-surface-2 object-cover', large ? 'size-full' : 'size-10 rounded-lg')}
      />
    );
  }

  const extension = extensionOf(item.attributes.name);
  return (
    <span
      className={cn(
        'relative grid shrink-0 place-items-center rounded-lg bg-surface-2 text-muted',
        large ? 'size-20 rounded-2xl' : 'size-10',
      )}
    >
      {createElement(fileIcon(item), {
        className: large ? 'size-9' : 'size-5',
        strokeWidth: 1.5,
        'aria-hidden': true,
      })}
      {large && extension && (
        <span className="absolute bottom-1.5 max-w-[90%] truncate rounded bg-surface px-1 text-[10px] font-semibold tracking-wide text-muted uppercase">
          {extension}
        </span>
      )}
    </span>
  );
}
