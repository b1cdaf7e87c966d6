/** A chunk of a first build, as far as grouping needs it. */
export interface ChunkNode {
  fileName: string;
  name: string;
  moduleIds: string[];
  /** Files of the chunks it imports statically. */
  imports: string[];
  isEntry: boolean;
  isDynamicEntry: boolean;
  facadeModuleId: string | null;
  /** Bytes of its code: what a page that loads it downloads more. */
  size: number;
}

export interface GroupPlan {
  /** The screen's modules (loaded lazily): its first load is their chunks and all they import. */
  screens: string[];
  /** Whether a lazily loaded module is a screen (or a part loaded on use) that must not load more. */
  apart: (moduleId: string) => boolean;
  /** How many bytes more than before any such screen may load. */
  budget: number;
}

/**
 * Which chunks of a first build go together: the screen's first load (less the entry's) in as few
 * groups as the other screens allow. Every screen that `apart` names (those a visitor opens outside
 * the signed-in frame, and parts they load on use) may load at most `budget` bytes more than before,
 * so groups start as the chunks that the same such screens load (merging those costs none of them
 * anything) and the cheapest pair is merged while the budget holds. A merge that would let a group
 * import a chunk that imports it back is never made: the chunks of a cycle cannot all run first.
 * Returns each grouped chunk's file with its group's largest chunk's (a group's key); chunks left out
 * keep their own.
 */
export function planGroups(chunks: ChunkNode[], plan: GroupPlan): Map<string, string> {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const closure = (start: ChunkNode[]) => {
    const seen = new Set<string>();
    const visit = (chunk: ChunkNode | undefined) => {
      if (!chunk || seen.has(chunk.fileName)) return;
      seen.add(chunk.fileName);
      chunk.imports.forEach((file) => visit(byFile.get(file)));
    };
    start.forEach(visit);
    return seen;
  };
  const entry = closure(chunks.filter((chunk) => chunk.isEntry));
  const first = [
    ...closure(chunks.filter((chunk) => plan.screens.some((id) => chunk.moduleIds.includes(id)))),
  ];
  const apartScreens = chunks
    .filter((chunk) => chunk.isDynamicEntry && chunk.facadeModuleId && plan.apart(chunk.facadeModuleId))
    .map((chunk) => closure([chunk]));

  // Groups as sets of files; at first one per set of apart screens loading them.
  const groups = new Map<string, string[]>();
  for (const file of first) {
    if (entry.has(file)) continue;
    const key = apartScreens.map((loaded) => (loaded.has(file) ? 1 : 0)).join('');
    groups.set(key, [...(groups.get(key) ?? []), file]);
  }
  let current = [...groups.values()];
  const size = (files: string[]) => files.reduce((sum, file) => sum + byFile.get(file)!.size, 0);
  // What each apart screen loads beyond its own chunks, with these groups.
  const extra = (candidate: string[][]) =>
    apartScreens.map((loaded) =>
      size(
        candidate
          .filter((files) => files.some((file) => loaded.has(file)))
          .flatMap((files) => files.filter((file) => !loaded.has(file))),
      ),
    );
  for (;;) {
    let best: { groups: string[][]; cost: number } | null = null;
    const before = extra(current).reduce((sum, bytes) => sum + bytes, 0);
    for (let a = 0; a < current.length; a++)
      for (let b = a + 1; b < current.length; b++) {
        const merged = [...current[a]!, ...current[b]!];
        const candidate = [merged, ...current.filter((_, index) => index !== a && index !== b)];
        const after = extra(candidate);
        if (after.some((bytes) => bytes > plan.budget)) continue;
        const cost = after.reduce((sum, bytes) => sum + bytes, 0) - before;
        if (best && cost >= best.cost) continue;
        if (importsBack(merged, byFile)) continue;
        best = { groups: candidate, cost };
      }
    if (!best) break;
    current = best.groups;
  }
  const keys = new Map<string, string>();
  for (const files of current) {
    if (files.length < 2) continue;
    const largest = [...files].sort((a, b) => byFile.get(b)!.size - byFile.get(a)!.size)[0]!;
    for (const file of files) keys.set(file, largest);
  }
  return keys;
}

/**
 * Whether a chunk outside `group` that the group imports leads back into it. (Merging P with Q when P
 * imports X and X imports Q never costs less than merging P with X, so the planner meets such a pair
 * only on a tie.)
 */
export function importsBack(group: string[], byFile: Map<string, ChunkNode>): boolean {
  const members = new Set(group);
  const seen = new Set<string>();
  const pending = group.flatMap((file) => byFile.get(file)!.imports).filter((file) => !members.has(file));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (members.has(file)) return true;
    if (seen.has(file)) continue;
    seen.add(file);
    pending.push(...(byFile.get(file)?.imports ?? []));
  }
  return false;
}
