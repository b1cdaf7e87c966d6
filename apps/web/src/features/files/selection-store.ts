import { createStore, useStore } from '../../lib/create-store';
import type { FileItem } from './files-api';

/**
 * The clipboard of the description: the items picked for a batch action. Multi-select mode makes a
 * tap toggle an item instead of opening it; switching the mode on or off clears the clipboard.
 */
interface SelectionState {
  selectMode: boolean;
  clipboard: FileItem[];
  /** Where a shift-click range starts. */
  anchorId: string | null;
}

export const selectionStore = createStore<SelectionState>({
  selectMode: false,
  clipboard: [],
  anchorId: null,
});

export function toggleSelectMode() {
  selectionStore.set((state) => ({ selectMode: !state.selectMode, clipboard: [], anchorId: null }));
}

export function clearSelection() {
  selectionStore.set((state) => ({ ...state, clipboard: [], anchorId: null }));
}

export function selectOnly(item: FileItem) {
  selectionStore.set((state) => ({ ...state, clipboard: [item], anchorId: item.id }));
}

export function toggleSelected(item: FileItem) {
  selectionStore.set((state) => {
    const present = state.clipboard.some((entry) => entry.id === item.id);
    const clipboard = present
      ? state.clipboard.filter((entry) => entry.id !== item.id)
      : [...state.clipboard, item];
    return { ...state, clipboard, anchorId: item.id };
  });
}

/** Shift-click: everything between the anchor and `item` in the listing's order. */
export function selectRange(item: FileItem, ordered: readonly FileItem[]) {
  selectionStore.set((state) => {
    const from = ordered.findIndex((entry) => entry.id === state.anchorId);
    const to = ordered.findIndex((entry) => entry.id === item.id);
    if (from < 0 || to < 0) return { ...state, clipboard: [item], anchorId: item.id };
    const [start, end] = from < to ? [from, to] : [to, from];
    return { ...state, clipboard: ordered.slice(start, end + 1) };
  });
}

export function selectAll(items: readonly FileItem[]) {
  selectionStore.set((state) => ({ ...state, clipboard: [...items] }));
}

/** Drops items that left the listing (moved, deleted) from the clipboard. */
export function forgetSelected(ids: readonly string[]) {
  const gone = new Set(ids);
  selectionStore.set((state) => ({
    ...state,
    clipboard: state.clipboard.filter((entry) => !gone.has(entry.id)),
  }));
}

export function useSelection<S>(select: (state: SelectionState) => S): S {
  return useStore(selectionStore, select);
}
