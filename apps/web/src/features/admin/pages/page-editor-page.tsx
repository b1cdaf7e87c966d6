import { UpdatePageBody } from '@atelier/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Eye, PencilLine, Save } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { MarkdownContent } from '../../../components/markdown-content';
import { pushToast } from '../../../components/overlays/overlay-store';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { InputField } from '../../../components/ui/field';
import { SwitchField } from '../../../components/ui/switch';
import { ApiError } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { useApiForm, validateWith } from '../../../lib/use-api-form';
import { NotFoundPage } from '../../public/not-found-page';
import { AdminHeader, LoadState } from '../users/admin-header';
import { fetchPage, pageKeys, previewMarkdown, updatePage, type Page } from './pages-api';

/** The preview follows the text after this pause in typing. */
const PREVIEW_DELAY_MS = 250;

/** /admin/pages/{slug}: title, visibility and the Markdown with its live preview. */
export function PageEditorPage() {
  const { slug = '' } = useParams();
  const page = useQuery({
    queryKey: pageKeys.page(slug),
    queryFn: () => fetchPage(slug),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
  if (page.error instanceof ApiError && page.error.status === 404) return <NotFoundPage />;
  if (page.isPending || page.isError) return <LoadState failed={page.isError} />;
  return <PageEditor key={page.data.id} page={page.data} />;
}

function PageEditor({ page }: { page: Page }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const contentId = useId();
  const [saved, setSaved] = useState(page.attributes);
  const [values, setValues] = useState({
    title: page.attributes.title,
    content: page.attributes.content,
    visibility: page.attributes.visibility,
  });
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const html = usePreview(values.content, page.attributes.html);
  const dirty =
    values.title !== saved.title ||
    values.content !== saved.content ||
    values.visibility !== saved.visibility;

  const { submitting, fieldErrors, onSubmit } = useApiForm(
    () => updatePage(page.id, validateWith(UpdatePageBody, values)),
    (updated) => {
      setSaved(updated.attributes);
      client.setQueryData(pageKeys.page(page.id), updated);
      void client.invalidateQueries({ queryKey: pageKeys.all, exact: true });
      client.removeQueries({ queryKey: pageKeys.public(page.id) });
      pushToast('success', t('admin_pages.saved'));
    },
  );

  return (
    <form className="flex flex-col gap-6" onSubmit={onSubmit} noValidate>
      <Link
        to="/admin/pages"
        className="inline-flex w-fit items-center gap-1.5 text-sm text-muted hover:text-ink"
      >
        <ArrowLeft className="size-4" aria-hidden />
        {t('admin_pages.back')}
      </Link>
      <AdminHeader title={saved.title} lead={`/page/${page.id}`}>
        {/* Kept in the layout while hidden, so its coming does not move Save (to a line of its own on a phone). */}
        <span className={cn('text-sm text-muted', !dirty && 'invisible')} aria-hidden={!dirty}>
          {t('admin_pages.unsaved')}
        </span>
        <Button type="submit" loading={submitting} disabled={!dirty}>
          <Save className="size-4" aria-hidden />
          {t('admin_pages.save')}
        </Button>
      </AdminHeader>

      <Card className="grid gap-4 p-4 sm:p-5 md:grid-cols-[minmax(0,1fr)_minmax(0,20rem)] md:items-end">
        <InputField
          label={t('admin_pages.title')}
          value={values.title}
          onChange={(event) => setValues({ ...values, title: event.target.value })}
          error={fieldErrors.title}
        />
        <SwitchField
          label={t(values.visibility ? 'admin_pages.visible' : 'admin_pages.hidden')}
          description={t(
            values.visibility ? 'admin_pages.visible_description' : 'admin_pages.hidden_description',
          )}
          checked={values.visibility}
          onCheckedChange={(visibility) => setValues({ ...values, visibility })}
        />
      </Card>

      <div className="flex rounded-xl border border-line bg-surface-2 p-1 lg:hidden" role="tablist">
        {(['write', 'preview'] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            onClick={() => setTab(name)}
            className={cn(
              'flex h-9 flex-1 cursor-pointer items-center justify-center gap-2 rounded-lg text-sm font-medium transition-colors',
              tab === name ? 'bg-surface text-ink shadow-soft' : 'text-muted hover:text-ink',
            )}
          >
            {name === 'write' ? (
              <PencilLine className="size-4" aria-hidden />
            ) : (
              <Eye className="size-4" aria-hidden />
            )}
            {t(`admin_pages.${name}`)}
          </button>
        ))}
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card className={cn('flex flex-col gap-2 p-4 sm:p-5', tab !== 'write' && 'max-lg:hidden')}>
          <label htmlFor={contentId} className="flex items-center gap-2 text-sm font-medium">
            <PencilLine className="size-4 text-muted" aria-hidden />
            {t('admin_pages.content')}
          </label>
          <textarea
            id={contentId}
            value={values.content}
            onChange={(event) => setValues({ ...values, content: event.target.value })}
            aria-invalid={fieldErrors.content ? true : undefined}
            spellCheck
            className="min-h-[28rem] w-full flex-1 resize-y rounded-xl border border-line bg-surface px-3.5 py-3 font-mono text-sm leading-relaxed text-ink focus:border-accent focus:ring-3 focus:ring-accent/15 focus:outline-none aria-invalid:border-danger"
          />
          {fieldErrors.content ? (
            <p role="alert" className="text-sm text-danger">
              {fieldErrors.content}
            </p>
          ) : (
            <p className="text-xs text-muted">{t('admin_pages.markdown_hint')}</p>
          )}
        </Card>
        <Card
          className={cn('flex flex-col gap-4 p-4 sm:p-6', tab !== 'preview' && 'max-lg:hidden')}
          data-testid="page-preview"
        >
          <p className="flex items-center gap-2 text-sm font-medium">
            <Eye className="size-4 text-muted" aria-hidden />
            {t('admin_pages.preview')}
          </p>
          <h2 className="font-display text-3xl font-semibold tracking-tight">{values.title}</h2>
          {html.trim() === '' ? (
            <p className="text-sm text-muted">{t('admin_pages.preview_empty')}</p>
          ) : (
            <MarkdownContent html={html} />
          )}
        </Card>
      </div>
    </form>
  );
}

/** The server's rendering of the text being written, the same the public page will show. */
function usePreview(content: string, initial: string): string {
  const [html, setHtml] = useState(initial);
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      previewMarkdown(content, controller.signal).then(setHtml, () => undefined);
    }, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [content]);
  return html;
}
