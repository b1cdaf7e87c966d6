import { isModelFileName } from '@atelier/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, ChevronRight, Home } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pushToast, showAlert } from '../../components/overlays/overlay-store';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/modal';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { displayFileName } from '../../lib/file-name';
import { fetchListingPage, type FileItem } from '../files/files-api';
import { formatBytes } from '../files/item-kind';
import { ItemVisual } from '../files/item-visual';
import { useSession } from '../session/session-queries';
import { addProjectInputs, projectKeys } from './projects-api';

const BY_NAME = { sort: 'name', direction: 'asc' } as const;

/**
 * "Add from My files": the person's folders to walk through and the models in each (other files
 * are left out), to tick and copy into the project. The copies are the project's own, so the
 * originals can move or go; they count in the person's storage.
 */
export function AddFromFilesDialog({
  projectId,
  projectFolderId,
  onClose,
}: {
  projectId: string;
  /** The project's own folder: its models are there already, so the walk does not go in. */
  projectFolderId: string | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const showError = useGenericError();
  const { resource } = useSession();
  const [path, setPath] = useState<FileItem[]>([]);
  const [chosen, setChosen] = useState<Map<string, FileItem>>(new Map());
  const [adding, setAdding] = useState(false);
  const folderId = path.at(-1)?.id ?? null;
  const listing = useQuery({
    queryKey: ['projects', 'pick-models', folderId],
    queryFn: ({ signal }) => fetchListingPage({ kind: 'folder', id: folderId }, BY_NAME, { page: 1 }, signal),
  });
  const entries = (listing.data?.data ?? []).filter((item) =>
    item.type === 'folder' ? item.id !== projectFolderId : isModelFileName(item.attributes.name),
  );

  const toggle = (file: FileItem) =>
    setChosen((current) => {
      const next = new Map(current);
      if (!next.delete(file.id)) next.set(file.id, file);
      return next;
    });

  async function add() {
    // The copies are stored like uploads, and refused like them.
    if (resource?.meta.restrictions.canUpload === false) {
      showAlert(t('upload_temporarily_disabled.title'), t('upload_temporarily_disabled.message'));
      return;
    }
    setAdding(true);
    try {
      const added = await addProjectInputs(projectId, [...chosen.keys()]);
      pushToast('success', t('projects.add_from_files_done', { count: added.data.length }));
      void client.invalidateQueries({
        queryKey: projectKeys.all,
        predicate: (q) => q.queryKey[1] !== 'progress',
      });
      onClose();
    } catch (error) {
      if (error instanceof ApiError && [401, 403, 422, 423].includes(error.status))
        pushToast('danger', error.message);
      else showError();
    } finally {
      setAdding(false);
    }
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('projects.add_from_files')}
      description={t('projects.add_from_files_lead')}
      className="max-w-xl"
    >
      <nav aria-label={t('projects.add_from_files_where')} className="mt-4 flex flex-wrap items-center gap-1">
        <CrumbButton current={path.length === 0} onClick={() => setPath([])}>
          <Home className="size-3.5" aria-hidden />
          {t('files.my_files')}
        </CrumbButton>
        {path.map((folder, index) => (
          <span key={folder.id} className="flex items-center gap-1">
            <ChevronRight className="size-3.5 text-muted" aria-hidden />
            <CrumbButton
              current={index === path.length - 1}
              onClick={() => setPath(path.slice(0, index + 1))}
            >
              {displayFileName(folder.attributes.name)}
            </CrumbButton>
          </span>
        ))}
      </nav>
      <div className="mt-3 h-[min(50vh,22rem)] overflow-y-auto rounded-2xl border border-line">
        {listing.isPending ? (
          <div className="grid h-full place-items-center">
            <Spinner className="size-6" />
          </div>
        ) : entries.length === 0 ? (
          <p className="grid h-full place-items-center px-6 text-center text-sm text-muted">
            {t('projects.add_from_files_none')}
          </p>
        ) : (
          <ul className="divide-y divide-line">
            {entries.map((item) => {
              const picked = chosen.has(item.id);
              const folder = item.type === 'folder';
              return (
                <li key={item.id}>
                  <button
                    type="button"
                    role={folder ? undefined : 'checkbox'}
                    aria-checked={folder ? undefined : picked}
                    onClick={() => (folder ? setPath([...path, item]) : toggle(item))}
                    className={cn(
                      'flex w-full cursor-pointer items-center gap-3 px-3 py-2.5 text-left transition-colors hover:bg-surface-2',
                      picked && 'bg-accent-soft/60',
                    )}
                  >
                    <ItemVisual item={item} size="row" />
                    <span className="min-w-0 flex-1">
                      <span className="block truncate text-sm font-medium">
                        {displayFileName(item.attributes.name)}
                      </span>
                      {!folder && (
                        <span className="block text-xs text-muted">
                          {formatBytes(item.attributes.filesize ?? 0, i18n.language)}
                        </span>
                      )}
                    </span>
                    {folder ? (
                      <ChevronRight className="size-4 text-muted" aria-hidden />
                    ) : (
                      <span
                        className={cn(
                          'grid size-5 place-items-center rounded-md border',
                          picked ? 'border-accent bg-accent text-on-accent' : 'border-line',
                        )}
                        aria-hidden
                      >
                        {picked && <Check className="size-3.5" strokeWidth={3} />}
                      </span>
                    )}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      <div className="mt-5 flex flex-wrap items-center justify-end gap-2">
        <p className="mr-auto text-sm text-muted" aria-live="polite">
          {chosen.size > 0 && t('projects.add_from_files_chosen', { count: chosen.size })}
        </p>
        <Button type="button" variant="secondary" onClick={onClose}>
          {t('actions.cancel')}
        </Button>
        <Button type="button" onClick={add} loading={adding} disabled={chosen.size === 0}>
          {t('projects.add_from_files_submit', { count: Math.max(1, chosen.size) })}
        </Button>
      </div>
    </Modal>
  );
}

function CrumbButton({
  current,
  onClick,
  children,
}: {
  current: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-current={current ? 'location' : undefined}
      className={cn(
        'flex h-8 max-w-48 cursor-pointer items-center gap-1.5 truncate rounded-lg px-2 text-sm',
        current ? 'font-semibold text-ink' : 'text-muted hover:bg-surface-2 hover:text-ink',
      )}
    >
      {children}
    </button>
  );
}
