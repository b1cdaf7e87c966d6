import type { ProjectCover } from '@atelier/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format-date';
import { PreviewViewer } from '../files/file-preview';
import { formatBytes } from '../files/item-kind';
import { useGatedDownload } from '../files/use-download-gate';
import { UseAsCoverAction } from './project-cover';
import type { ProjectFileResource } from './projects-api';

/** What the previewer says under an output's name: its size, when it was made and by which engine. */
export function outputCaption(file: ProjectFileResource, t: TFunction, language: string): string {
  const engine = file.meta.render?.attributes.engine;
  return [
    formatBytes(file.attributes.filesize ?? 0, language),
    formatDateTime(file.attributes.created_at, language),
    engine && t(`projects.engine_short.${engine}`),
  ]
    .filter(Boolean)
    .join(' · ');
}

/** A project's outputs (or a gallery day's) in the file manager's previewer; a still can become its project's cover. */
export function OutputPreview({
  files,
  file,
  onOpen,
  onClose,
  cover,
}: {
  files: readonly ProjectFileResource[];
  file: ProjectFileResource;
  onOpen: (file: ProjectFileResource) => void;
  onClose: () => void;
  /** The project's cover, where the page knows it. */
  cover?: ProjectCover | null;
}) {
  const { t, i18n } = useTranslation();
  const download = useGatedDownload();
  return (
    <PreviewViewer
      items={files}
      item={file}
      onOpen={onOpen}
      onClose={onClose}
      fileUrl={(entry) => entry.attributes.file_url ?? ''}
      onDownload={(entry) => download(`${entry.attributes.file_url}?download=1`)}
      caption={outputCaption(file, t, i18n.language)}
      actions={<UseAsCoverAction file={file} cover={cover} />}
    />
  );
}
