import type { ItemDocument, VersionList, VersionResource } from '@atelier/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, Eye, History, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pushToast } from '../../components/overlays/overlay-store';
import { Button } from '../../components/ui/button';
import { IconButton } from '../../components/ui/icon-button';
import { Modal } from '../../components/ui/modal';
import { Spinner } from '../../components/ui/spinner';
import { api, apiRequest } from '../../lib/api-client';
import { displayFileName } from '../../lib/file-name';
import { formatDateTime } from '../../lib/format-date';
import { startDownload } from '../../lib/start-download';
import { useFileActions } from './file-actions';
import { accountVersions, type VersionAddresses } from './file-source';
import type { FileItem } from './files-api';
import { formatBytes } from './item-kind';
import { patchCachedItems } from './listing-cache';

/**
 * A file's details and its versions (who saved each, when, its size, the current one marked): any
 * of them opens or downloads; who may change the file restores one (the current bytes become a
 * version in turn) or deletes one, after confirming.
 */
export function VersionsDialog({ item }: { item: FileItem }) {
  const actions = useFileActions();
  const queryClient = useQueryClient();
  return (
    <VersionsPanel
      item={item}
      // The owner's calls, or a share link's on its page.
      addresses={actions.source.versions ?? accountVersions}
      writable={actions.source.writable}
      onClose={actions.closeDialog}
      onRestored={(restored) =>
        patchCachedItems(queryClient, actions.source.keys.listings, [item.id], () =>
          actions.source.normalise(restored),
        )
      }
    />
  );
}

interface VersionsPanelProps {
  item: FileItem;
  addresses: VersionAddresses;
  /** Whether versions may be restored and deleted here. */
  writable: boolean;
  onClose(): void;
  /** The file as a restore left it. */
  onRestored?(item: FileItem): void;
}

/** The dialog itself, wherever a file is shown (a file browser, a shared file's page). */
export function VersionsPanel({ item, addresses, writable, onClose, onRestored }: VersionsPanelProps) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<string | null>(null);
  const versionUrl = (versionId: string, download = false) => addresses.version(item.id, versionId, download);
  const versions = useQuery({
    queryKey: addresses.key(item.id),
    queryFn: ({ signal }) =>
      api.get<VersionList>(addresses.list(item.id), {
        signal,
        ...(addresses.anonymous ? { handleUnauthorized: false } : {}),
      }),
  });
  const changed = () => queryClient.invalidateQueries({ queryKey: addresses.key(item.id) });
  const restore = useMutation({
    mutationFn: (version: VersionResource) =>
      api.post<ItemDocument>(addresses.restore(item.id, version.id), undefined, {
        handleUnauthorized: false,
      }),
    onSuccess: async ({ data }) => {
      onRestored?.(data);
      await changed();
      pushToast('success', t('versions.restored'));
    },
    onError: () => pushToast('danger', t('versions.failed')),
  });
  const remove = useMutation({
    mutationFn: (version: VersionResource) =>
      apiRequest(versionUrl(version.id), { method: 'DELETE', handleUnauthorized: false }),
    onSuccess: async () => {
      setConfirming(null);
      await changed();
      pushToast('success', t('versions.deleted'));
    },
    onError: () => pushToast('danger', t('versions.failed')),
  });
  const list = versions.data?.data ?? [];
  const busy = restore.isPending || remove.isPending;

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('versions.title')}
      description={displayFileName(item.attributes.name)}
      className="max-w-xl"
    >
      <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
        <Detail
          label={t('versions.size')}
          value={formatBytes(item.attributes.filesize ?? 0, i18n.language)}
        />
        <Detail label={t('versions.type')} value={item.attributes.mimetype ?? '—'} />
        <Detail
          label={t('versions.modified')}
          value={formatDateTime(item.attributes.updated_at, i18n.language)}
        />
        <Detail
          label={t('versions.count_label')}
          value={versions.data ? t('versions.count', { count: Math.max(0, list.length - 1) }) : '…'}
        />
      </dl>
      {versions.isPending ? (
        <div className="flex justify-center py-8">
          <Spinner />
        </div>
      ) : versions.isError ? (
        <p className="mt-6 text-sm text-danger">{t('versions.load_failed')}</p>
      ) : (
        <ul className="mt-5 max-h-[55vh] divide-y divide-line overflow-y-auto rounded-2xl border border-line">
          {list.map((version) => (
            <li key={version.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3">
              <History className="size-4 shrink-0 text-muted" aria-hidden />
              {/* On a phone the buttons go under the text rather than squeeze it. */}
              <div className="min-w-48 flex-1">
                <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm font-medium">
                  {formatDateTime(version.attributes.created_at, i18n.language)}
                  {version.attributes.current && (
                    <span className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-accent">
                      {t('versions.current')}
                    </span>
                  )}
                </p>
                <p className="text-xs break-words text-muted">
                  {t('versions.saved_by', { name: version.attributes.author.name ?? t('versions.someone') })}
                  {' · '}
                  {formatBytes(version.attributes.size, i18n.language)}
                </p>
              </div>
              {confirming === version.id ? (
                <div className="ml-auto flex items-center gap-2">
                  <span className="text-xs text-muted">{t('versions.confirm_delete')}</span>
                  <Button size="sm" variant="danger" disabled={busy} onClick={() => remove.mutate(version)}>
                    {t('versions.delete')}
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => setConfirming(null)}>
                    {t('versions.cancel')}
                  </Button>
                </div>
              ) : (
                <div className="ml-auto flex items-center gap-1">
                  <IconButton
                    label={t('versions.open')}
                    icon={Eye}
                    onClick={() => window.open(versionUrl(version.id), '_blank', 'noopener')}
                  />
                  <IconButton
                    label={t('versions.download')}
                    icon={Download}
                    onClick={() => startDownload(versionUrl(version.id, true))}
                  />
                  {writable && !version.attributes.current && (
                    <>
                      <IconButton
                        label={t('versions.restore')}
                        icon={RotateCcw}
                        disabled={busy}
                        onClick={() => restore.mutate(version)}
                      />
                      <IconButton
                        label={t('versions.delete')}
                        icon={Trash2}
                        disabled={busy}
                        onClick={() => setConfirming(version.id)}
                      />
                    </>
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="mt-5 flex justify-end">
        <Button variant="ghost" onClick={onClose}>
          {t('versions.close')}
        </Button>
      </div>
    </Modal>
  );
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="font-medium break-words">{value}</dd>
    </div>
  );
}
