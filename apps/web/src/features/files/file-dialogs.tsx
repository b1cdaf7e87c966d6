import { NEW_FOLDER_FOCUS_DELAY_MS } from '@atelier/contracts';
import { FolderPlus, SmilePlus } from 'lucide-react';
import { Popover } from 'radix-ui';
import { Suspense, lazy, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { Field, InputField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { Spinner } from '../../components/ui/spinner';
import { useFileActions } from './file-actions';
import type { FileItem } from './files-api';
import { FolderTree, useFolderTree, withDescendants } from './folder-tree';
import { ColourPicker, EmojiPicker } from './pickers';
import { Emoji } from '../../components/emoji';
import { displayFileName } from '../../lib/file-name';

// Opened from a menu: their forms, schemas and libraries load then, not with the listing.
const ShareDialog = lazy(async () => ({ default: (await import('../sharing/share-dialog')).ShareDialog }));
const TeamFolderDialog = lazy(async () => ({
  default: (await import('../teams/team-folder-dialog')).TeamFolderDialog,
}));
const GenerateRendersDialog = lazy(async () => ({
  default: (await import('../projects/generate-renders-dialog')).GenerateRendersDialog,
}));
const VersionsDialog = lazy(async () => ({
  default: (await import('./versions-dialog')).VersionsDialog,
}));
const UploadRequestDialog = lazy(async () => ({
  default: (await import('../upload-requests/upload-request-dialog')).UploadRequestDialog,
}));

const isMobile = () =>
  typeof window !== 'undefined' && window.matchMedia?.('(max-width: 767px), (pointer: coarse)').matches;

/**
 * The new-folder input shown at the top of the listing. It takes focus 10 ms after it appears,
 * except on mobile, where focusing would throw the keyboard over the list (section 9).
 */
export function NewFolderRow({ parentId }: { parentId: string | null }) {
  const { t } = useTranslation();
  const actions = useFileActions();
  const inputRef = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [emoji, setEmoji] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (isMobile()) return;
    const timer = setTimeout(() => inputRef.current?.focus(), NEW_FOLDER_FOCUS_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed || saving) return;
    setSaving(true);
    const created = await actions.createFolder({ name: trimmed, emoji, parent_id: parentId });
    setSaving(false);
    if (created) actions.closeDialog();
  }

  return (
    <form
      onSubmit={submit}
      onKeyDown={(event) => event.key === 'Escape' && actions.closeDialog()}
      className="mb-2 flex animate-rise-in flex-wrap items-center gap-2 rounded-2xl border border-accent/40 bg-surface p-2 shadow-soft sm:flex-nowrap sm:pl-3"
    >
      <Popover.Root>
        <Popover.Trigger
          type="button"
          className="grid size-10 shrink-0 cursor-pointer place-items-center rounded-xl bg-accent-soft text-lg text-accent hover:opacity-85"
          aria-label={t('files.choose_emoji')}
        >
          {emoji ? <Emoji value={emoji} /> : <SmilePlus className="size-5" aria-hidden />}
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content
            align="start"
            sideOffset={6}
            className="z-50 w-72 animate-fade-in rounded-2xl border border-line bg-surface p-2 shadow-lift"
          >
            <EmojiPicker value={emoji} onChange={setEmoji} />
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      <input
        ref={inputRef}
        value={name}
        onChange={(event) => setName(event.target.value)}
        placeholder={t('files.new_folder_placeholder')}
        aria-label={t('files.folder_name')}
        maxLength={255}
        className="h-10 min-w-0 flex-1 bg-transparent px-1 text-sm text-ink outline-none placeholder:text-muted/70"
      />
      <div className="flex w-full gap-2 sm:w-auto">
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="flex-1 sm:flex-none"
          onClick={actions.closeDialog}
        >
          {t('actions.cancel')}
        </Button>
        <Button
          type="submit"
          size="sm"
          className="flex-1 sm:flex-none"
          loading={saving}
          disabled={!name.trim()}
        >
          <FolderPlus className="size-4" aria-hidden />
          {t('files.create_folder')}
        </Button>
      </div>
    </form>
  );
}

/** Rename an item; folders also get an emoji and a colour. */
function EditDialog({ item }: { item: FileItem }) {
  const { t } = useTranslation();
  const actions = useFileActions();
  const [name, setName] = useState(item.attributes.name);
  const [emoji, setEmoji] = useState<string | null>(item.attributes.emoji ?? null);
  const [colour, setColour] = useState<string | null>(item.attributes.color ?? null);
  const [saving, setSaving] = useState(false);
  const isFolder = item.type === 'folder';

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    setSaving(true);
    const saved = await actions.saveItem(
      item,
      isFolder ? { name: trimmed, emoji, color: colour } : { name: trimmed },
    );
    setSaving(false);
    if (saved) actions.closeDialog();
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && actions.closeDialog()}
      title={isFolder ? t('files.edit_folder') : t('files.rename_file')}
      className="max-w-lg"
    >
      <form onSubmit={submit} className="mt-5 flex flex-col gap-5">
        <InputField
          label={t('files.name')}
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={255}
          required
        />
        {isFolder && (
          <>
            <Field label={t('files.emoji')}>{() => <EmojiPicker value={emoji} onChange={setEmoji} />}</Field>
            <Field label={t('files.colour')}>
              {() => <ColourPicker value={colour} onChange={setColour} />}
            </Field>
          </>
        )}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={actions.closeDialog}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" loading={saving} disabled={!name.trim()}>
            {t('files.save')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** Pick a destination in the folder tree; an item can't go into itself or below itself. */
function MoveDialog({ items, topLabel }: { items: FileItem[]; topLabel: string }) {
  const { t } = useTranslation();
  const actions = useFileActions();
  const tree = useFolderTree(actions.source);
  const [target, setTarget] = useState<string | null | undefined>(undefined);
  const [moving, setMoving] = useState(false);
  // Not into a moved folder or below it, and not where the items already are.
  const parents = new Set(items.map((item) => item.attributes.parent_id));
  const [onlyParent] = parents.size === 1 ? [...parents] : [undefined];
  const disabled = useMemo(() => {
    const blocked = withDescendants(
      tree.data ?? [],
      new Set(items.filter((item) => item.type === 'folder').map((item) => item.id)),
    );
    if (onlyParent) blocked.add(onlyParent);
    return blocked;
  }, [tree.data, items, onlyParent]);
  const [first] = items;

  async function move() {
    if (target === undefined) return;
    setMoving(true);
    const moved = await actions.moveTo(items, target);
    setMoving(false);
    if (moved) actions.closeDialog();
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && actions.closeDialog()}
      title={t('files.move_title')}
      description={
        items.length === 1 && first
          ? t('files.move_one', { name: displayFileName(first.attributes.name) })
          : t('files.move_many', { count: items.length })
      }
      className="max-w-lg"
    >
      <div className="mt-5 max-h-[50vh] min-h-40 overflow-y-auto rounded-2xl border border-line p-2">
        {tree.isPending ? (
          <div className="grid h-40 place-items-center text-muted">
            <Spinner />
          </div>
        ) : (
          <FolderTree
            tree={tree.data ?? []}
            selectedId={target}
            onSelect={setTarget}
            rootLabel={topLabel}
            disabledIds={disabled}
            rootDisabled={onlyParent === null || actions.source.topIsList}
          />
        )}
      </div>
      <div className="mt-5 flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={actions.closeDialog}>
          {t('actions.cancel')}
        </Button>
        <Button type="button" onClick={move} loading={moving} disabled={target === undefined}>
          {t('files.move_here')}
        </Button>
      </div>
    </Modal>
  );
}

/** The edit, move, share, upload-request and team dialogs of the current screen (the preview has its own viewer). */
export function FileDialogs({ topLabel }: { topLabel: string }) {
  return (
    <Suspense>
      <OpenDialog topLabel={topLabel} />
    </Suspense>
  );
}

function OpenDialog({ topLabel }: { topLabel: string }) {
  const { dialog, closeDialog } = useFileActions();
  if (dialog?.kind === 'edit') return <EditDialog key={dialog.item.id} item={dialog.item} />;
  if (dialog?.kind === 'move') return <MoveDialog items={dialog.items} topLabel={topLabel} />;
  if (dialog?.kind === 'share')
    return <ShareDialog key={dialog.item.id} item={dialog.item} onClose={closeDialog} />;
  if (dialog?.kind === 'upload-request') {
    const { folder } = dialog;
    return (
      <UploadRequestDialog
        folder={folder && { id: folder.id, name: folder.attributes.name }}
        onClose={closeDialog}
      />
    );
  }
  if (dialog?.kind === 'team-folder')
    return <TeamFolderDialog folder={dialog.folder} onClose={closeDialog} />;
  if (dialog?.kind === 'versions') return <VersionsDialog key={dialog.item.id} item={dialog.item} />;
  if (dialog?.kind === 'generate-renders') {
    const { folder } = dialog;
    return (
      <GenerateRendersDialog folder={{ id: folder.id, name: folder.attributes.name }} onClose={closeDialog} />
    );
  }
  return null;
}
