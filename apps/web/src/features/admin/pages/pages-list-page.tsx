import { CreatePageBody, PAGE_SLUG_PATTERN } from '@atelier/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ExternalLink, FilePlus2, FileText, PencilLine } from 'lucide-react';
import { Switch } from 'radix-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { pushToast } from '../../../components/overlays/overlay-store';
import { useGenericError } from '../../../components/overlays/use-generic-error';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { InputField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { bindField, useApiForm, validateWith } from '../../../lib/use-api-form';
import { AdminHeader, LoadState } from '../users/admin-header';
import { createPage, fetchPages, pageKeys, updatePage, type Page } from './pages-api';
import { formatDate } from '../../../lib/format-date';

/** /admin/pages: the content pages, each shown or hidden with one switch. */
export function PagesListPage() {
  const { t } = useTranslation();
  const [creating, setCreating] = useState(false);
  const pages = useQuery({ queryKey: pageKeys.all, queryFn: fetchPages });

  return (
    <section className="flex flex-col gap-6">
      <AdminHeader title={t('pages.admin_pages')} lead={t('admin_pages.lead')}>
        <Button onClick={() => setCreating(true)}>
          <FilePlus2 className="size-4" aria-hidden />
          {t('admin_pages.new')}
        </Button>
      </AdminHeader>
      {pages.isPending || pages.isError ? (
        <LoadState failed={pages.isError} />
      ) : pages.data.length === 0 ? (
        <EmptyState icon={FileText} title={t('admin_pages.empty_title')} body={t('admin_pages.empty')} />
      ) : (
        <Card>
          <ul className="divide-y divide-line">
            {pages.data.map((page) => (
              <PageRow key={page.id} page={page} />
            ))}
          </ul>
        </Card>
      )}
      <NewPageDialog open={creating} onOpenChange={setCreating} />
    </section>
  );
}

function PageRow({ page }: { page: Page }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const showGenericError = useGenericError();
  const [saving, setSaving] = useState(false);
  const { slug, title, visibility, updated_at } = page.attributes;

  async function toggle(visible: boolean) {
    setSaving(true);
    try {
      const updated = await updatePage(slug, { visibility: visible });
      client.setQueryData<Page[]>(pageKeys.all, (list) =>
        list?.map((item) => (item.id === slug ? updated : item)),
      );
      // The editor takes its form from this entry once: a stale one would save the old visibility.
      client.setQueryData(pageKeys.page(slug), updated);
      client.removeQueries({ queryKey: pageKeys.public(slug) });
      pushToast('success', t(visible ? 'admin_pages.now_visible' : 'admin_pages.now_hidden', { title }));
    } catch {
      showGenericError();
    } finally {
      setSaving(false);
    }
  }

  return (
    <li
      className="flex flex-col gap-4 px-4 py-4 sm:flex-row sm:items-center sm:px-5"
      data-testid={`page-${slug}`}
    >
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-surface-2 text-accent">
          <FileText className="size-5" aria-hidden />
        </span>
        <div className="flex min-w-0 flex-col gap-0.5">
          <Link to={`/admin/pages/${slug}`} className="truncate font-medium hover:text-accent">
            {title}
          </Link>
          <p className="flex flex-wrap gap-x-3 text-sm text-muted">
            <span className="font-mono text-xs leading-5">/page/{slug}</span>
            <span>
              {t('admin_pages.updated', {
                date: formatDate(updated_at, i18n.language),
              })}
            </span>
          </p>
        </div>
      </div>
      <div className="flex items-center justify-between gap-3 sm:justify-end">
        <label className="flex cursor-pointer items-center gap-2.5 text-sm">
          <Switch.Root
            checked={visibility}
            disabled={saving}
            onCheckedChange={toggle}
            aria-label={t('admin_pages.visible')}
            className="relative h-6 w-11 shrink-0 cursor-pointer rounded-full bg-line transition-colors disabled:opacity-60 data-[state=checked]:bg-accent"
          >
            <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow-soft transition-transform data-[state=checked]:translate-x-[22px]" />
          </Switch.Root>
          <span className={visibility ? 'text-ink' : 'text-muted'}>
            {t(visibility ? 'admin_pages.visible' : 'admin_pages.hidden')}
          </span>
        </label>
        <div className="flex items-center gap-1">
          <Button asChild size="icon" variant="ghost" title={t('admin_pages.open')}>
            <a
              href={`/page/${slug}`}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={t('admin_pages.open')}
            >
              <ExternalLink className="size-4" aria-hidden />
            </a>
          </Button>
          <Button asChild size="sm" variant="secondary">
            <Link to={`/admin/pages/${slug}`}>
              <PencilLine className="size-4" aria-hidden />
              {t('admin_pages.edit')}
            </Link>
          </Button>
        </div>
      </div>
    </li>
  );
}

function NewPageDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [values, setValues] = useState({ slug: '', title: '' });
  const { submitting, fieldErrors, onSubmit } = useApiForm(
    () => createPage(validateWith(CreatePageBody, { ...values, content: '', visibility: false })),
    async (page) => {
      await client.invalidateQueries({ queryKey: pageKeys.all });
      setValues({ slug: '', title: '' });
      onOpenChange(false);
      await navigate(`/admin/pages/${page.id}`);
    },
  );
  const field = bindField(values, setValues, fieldErrors);
  const slug = PAGE_SLUG_PATTERN.test(values.slug) ? values.slug : '…';

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t('admin_pages.new_title')}
      description={t('admin_pages.new_lead')}
    >
      <form className="mt-5 flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        <InputField label={t('admin_pages.title')} autoComplete="off" {...field('title')} />
        <InputField
          label={t('admin_pages.slug')}
          hint={t('admin_pages.slug_hint', { slug })}
          autoComplete="off"
          spellCheck={false}
          {...field('slug')}
        />
        <div className="mt-2 flex justify-end gap-2">
          <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" loading={submitting}>
            {t('admin_pages.create')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
