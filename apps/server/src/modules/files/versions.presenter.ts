import type { VersionResource } from '@atelier/contracts';
import type { ContentView, VersionView } from './versions.repository';

/**
 * A file's versions as GET /api/files/{id}/versions lists them: the current bytes first, then the
 * kept ones, newest first. A version's id is its content's, so the current one keeps its id when it
 * becomes a version.
 */
export function presentVersions(
  current: ContentView,
  kept: readonly VersionView[],
  /** The authors' names by id (the users module's). */
  authors: ReadonlyMap<string, string>,
): VersionResource[] {
  return [
    presentVersion(current.id, current, true, authors),
    ...kept.map((version) => presentVersion(version.content_id, version, false, authors)),
  ];
}

function presentVersion(
  id: string,
  content: ContentView,
  current: boolean,
  authors: ReadonlyMap<string, string>,
): VersionResource {
  return {
    id,
    type: 'version',
    attributes: {
      size: Number(content.size),
      created_at: new Date(content.created_at).toISOString(),
      current,
      author: { name: content.author_id === null ? null : (authors.get(content.author_id) ?? null) },
    },
  };
}
