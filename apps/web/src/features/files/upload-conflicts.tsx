import type { UploadConflict } from '@atelier/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/modal';
import { createStore, useStore } from '../../lib/create-store';
import { displayFileName } from '../../lib/file-name';

/** What the person chose for a name the folder holds; `all` applies it to the rest of the batch. */
export interface ConflictAnswer {
  conflict: UploadConflict;
  all: boolean;
}

interface ConflictPrompt {
  name: string;
  /** Further names of the batch that the folder holds too. */
  others: number;
  resolve: (answer: ConflictAnswer | null) => void;
}

const promptStore = createStore<ConflictPrompt | null>(null);

function ask(name: string, others: number): Promise<ConflictAnswer | null> {
  return new Promise((resolve) => promptStore.set(() => ({ name, others, resolve })));
}

/**
 * What to do with each name of a batch that the folder holds already, asked one name at a time
 * (or once for all of them): `replace` or `keep-both` per name. Null when the person closed the
 * question: nothing of the batch is uploaded.
 */
export async function resolveUploadConflicts(
  names: readonly string[],
  taken: ReadonlySet<string>,
): Promise<Map<string, UploadConflict> | null> {
  const clashing = [...new Set(names.filter((name) => taken.has(name)))];
  const answers = new Map<string, UploadConflict>();
  for (const [index, name] of clashing.entries()) {
    const answer = await ask(name, clashing.length - index - 1);
    if (!answer) return null;
    if (answer.all) {
      for (const rest of clashing.slice(index)) answers.set(rest, answer.conflict);
      break;
    }
    answers.set(name, answer.conflict);
  }
  return answers;
}

/** The question, shown while a batch waits for it (mounted once by the file browser). */
export function UploadConflictPrompt() {
  const { t } = useTranslation();
  const prompt = useStore(promptStore, (state) => state);
  const [all, setAll] = useState(false);
  if (!prompt) return null;
  const answer = (conflict: UploadConflict | null) => {
    promptStore.set(() => null);
    setAll(false);
    prompt.resolve(conflict && { conflict, all });
  };
  return (
    <Modal
      open
      onOpenChange={(open) => !open && answer(null)}
      title={t('upload_conflict.title')}
      description={t('upload_conflict.message', { name: displayFileName(prompt.name) })}
    >
      {prompt.others > 0 && (
        <label className="mt-4 flex cursor-pointer items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-[var(--color-accent)]"
            checked={all}
            onChange={(event) => setAll(event.target.checked)}
          />
          {t('upload_conflict.apply_all', { count: prompt.others })}
        </label>
      )}
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => answer('keep-both')}>
          {t('upload_conflict.keep_both')}
        </Button>
        <Button onClick={() => answer('replace')}>{t('upload_conflict.replace')}</Button>
      </div>
    </Modal>
  );
}
