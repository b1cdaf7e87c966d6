import type { ProjectCover } from '@atelier/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format-date';
import { PreviewViewer } from '../files/file-preview';
import { formatBytes } from '../files/item-kind';
import { useGatedDownload } from '../files/use-download-gate';
import { modelVersionLabel } from './model-versions';
import { UseAsCoverAction } from './project-cover';
import type { ProjectFileResource } from './projects-api';
import { cameraLabel } from './studio-names';

/**
 * The camera an output shows, read from its name: renders are named by their model and their camera
 * (`ring-three-quarter-back.png`, `ring-turntable.mp4`), then a colourway's id (`ring-front-rose-gold.png`)
 * and a re-render's number (`ring-front (1).png`). Null when the name says nothing more.
 */
export function outputCamera(file: ProjectFileResource): string | null {
  const render = file.meta.render?.attributes;
  if (!render?.input_name) return null;
  const stem = `${render.input_name.replace(/\.[^.]+$/, '')}-`;
  const colourway = render.variant ? `-${render.variant.id}` : '';
  let name = file.attributes.name.replace(/\.[^.]+$/, '').replace(/ \(\d+\)$/, '');
  if (colourway && name.endsWith(colourway)) name = name.slice(0, -colourway.length);
  return name.startsWith(stem) && name.length > stem.length ? name.slice(stem.length) : null;
}

/**
 * What the previewer says under an output's name: its camera, size, when it was made, by which engine
 * and from which version of the model.
 */
export function outputCaption(file: ProjectFileResource, t: TFunction, language: string): string {
  const camera = outputCamera(file);
  const engine = file.meta.render?.attributes.engine;
  return [
    camera && cameraLabel(t, camera),
    formatBytes(file.attributes.filesize ?? 0, language),
    formatDateTime(file.attributes.created_at, language),
    engine && t(`projects.engine_short.${engine}`),
    modelVersionLabel(file.meta.model_version, t, language),
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
