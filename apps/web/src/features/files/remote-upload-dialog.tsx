import { REMOTE_UPLOAD_MAX_URLS, RemoteUrl } from '@atelier/contracts';
import type { TFunction } from 'i18next';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { cn } from '../../lib/cn';
import { useApiForm } from '../../lib/use-api-form';
import { useConfig } from '../session/session-queries';
import { startRemoteUpload } from './remote-uploads';

/** The non-empty lines of the box, each an address. */
function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** What is wrong with the pasted addresses, before anything is sent; null when nothing is. */
function problemWith(urls: string[], t: TFunction): string | null {
  if (urls.length === 0) return t('remote_upload.empty');
  if (urls.length > REMOTE_UPLOAD_MAX_URLS)
    return t('remote_upload.too_many', { max: REMOTE_UPLOAD_MAX_URLS });
  const bad = urls.findIndex((url) => !RemoteUrl.safeParse(url).success);
  return bad === -1 ? null : t('remote_upload.line_invalid', { line: bad + 1 });
}

/** "Upload from URLs": addresses, one a line, that the server downloads into the folder in the background. */
export function RemoteUploadDialog({
  parentId,
  open,
  onOpenChange,
}: {
  /** The folder the files go to; null for the top. */
  parentId: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t('remote_upload.title')}
      description={t('remote_upload.description')}
      className="max-w-xl"
    >
      {/* A new form each time it opens, so an earlier paste or message does not linger. */}
      {open && <RemoteUploadForm parentId={parentId} onDone={() => onOpenChange(false)} />}
    </Modal>
  );
}

function RemoteUploadForm({ parentId, onDone }: { parentId: string | null; onDone: () => void }) {
  const { t } = useTranslation();
  const realtimeOn = useConfig().broadcasting.driver !== 'null';
  const [text, setText] = useState('');
  /** The text last sent; its messages stay until the addresses change. */
  const [sent, setSent] = useState<string | null>(null);
  const urls = linesOf(text);
  const form = useApiForm(() => startRemoteUpload(urls, parentId, realtimeOn), onDone);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSent(text);
    if (!problemWith(urls, t)) void form.onSubmit();
  };
  // The server names the address (`urls.3`); any of them belongs to the box.
  const serverProblem = Object.entries(form.fieldErrors).find(([field]) => field.startsWith('urls'))?.[1];
  const error = text === sent ? (problemWith(urls, t) ?? serverProblem) : undefined;
  const over = urls.length > REMOTE_UPLOAD_MAX_URLS;

  return (
    <form onSubmit={onSubmit} className="mt-5 flex flex-col gap-5" noValidate>
      <Field
        label={t('remote_upload.urls_label')}
        error={error}
        hint={
          <span className={cn('tabular-nums', over && 'text-danger')}>
            {t('remote_upload.count', { count: urls.length, max: REMOTE_UPLOAD_MAX_URLS })}
          </span>
        }
      >
        {(id, describedBy) => (
          <textarea
            id={id}
            value={text}
            onChange={(event) => setText(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            rows={6}
            wrap="off"
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            placeholder={t('remote_upload.urls_placeholder')}
            className="min-h-40 w-full resize-y rounded-xl border border-line bg-surface px-3.5 py-3 font-mono text-[13px] leading-relaxed text-ink shadow-[inset_0_1px_0_rgb(0_0_0/0.02)] transition-colors placeholder:text-muted/70 hover:border-muted/40 focus:border-accent focus:ring-3 focus:ring-accent/15 focus:outline-none aria-invalid:border-danger aria-invalid:ring-danger/15"
          />
        )}
      </Field>
      {form.formError && !error && (
        <p role="alert" className="text-sm text-danger">
          {form.formError}
        </p>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onDone}>
          {t('remote_upload.cancel')}
        </Button>
        <Button type="submit" loading={form.submitting}>
          {t('remote_upload.submit')}
        </Button>
      </div>
    </form>
  );
}
