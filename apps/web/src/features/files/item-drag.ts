import { useState, type DragEvent } from 'react';
import type { UploadSource } from '../../lib/upload-queue';
import { carriesDesktopFiles, filesFromDrop } from './desktop-drop';
import type { FileItem, ItemRef } from './files-api';

/** Items dragged inside the page carry their references under this type. */
const ITEMS_TYPE = 'application/x-atelier-items';

export function startItemDrag(event: DragEvent, items: readonly FileItem[]) {
  const refs: ItemRef[] = items.map(({ id, type }) => ({ id, type }));
  event.dataTransfer.setData(ITEMS_TYPE, JSON.stringify(refs));
  event.dataTransfer.effectAllowed = 'move';
}

function carriesItems(event: DragEvent): boolean {
  return Array.from(event.dataTransfer.types).includes(ITEMS_TYPE);
}

function draggedItems(event: DragEvent): ItemRef[] {
  try {
    const parsed = JSON.parse(event.dataTransfer.getData(ITEMS_TYPE)) as ItemRef[];
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

interface DropHandlers {
  /** Items of the page dropped here (a move). */
  onItems?: (items: ItemRef[]) => void;
  /** Files or folders dropped from the desktop (an upload). */
  onFiles?: (sources: UploadSource[]) => void;
}

/** A place that accepts dragged items and/or desktop files; `over` drives its highlight. */
export function useDropTarget({ onItems, onFiles }: DropHandlers) {
  const [over, setOver] = useState(false);
  const accepts = (event: DragEvent) =>
    (onItems && carriesItems(event)) || (onFiles && carriesDesktopFiles(event.dataTransfer));

  const handlers = {
    onDragOver(event: DragEvent) {
      if (!accepts(event)) return;
      event.preventDefault();
      event.stopPropagation();
      event.dataTransfer.dropEffect = carriesItems(event) ? 'move' : 'copy';
      setOver(true);
    },
    onDragLeave(event: DragEvent) {
      if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
      setOver(false);
    },
    onDrop(event: DragEvent) {
      if (!accepts(event)) return;
      event.preventDefault();
      event.stopPropagation();
      setOver(false);
      if (carriesItems(event)) {
        const items = draggedItems(event);
        if (items.length > 0) onItems?.(items);
        return;
      }
      void filesFromDrop(event.dataTransfer).then((sources) => onFiles?.(sources));
    },
  };
  return { over, handlers };
}
