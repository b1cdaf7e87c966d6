import type { PageResource } from '@atelier/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { MarkdownContent } from '../../components/markdown-content';
import { PageLoader } from '../../components/page-loader';
import { ApiError, api } from '../../lib/api-client';
import { useConfig } from '../session/session-queries';
import { NotFoundPage } from './not-found-page';
import { formatDate } from '../../lib/format-date';

/** A content page from the pages table (terms, privacy, cookie policy, and whatever an admin adds), rendered from its Markdown. */
export function DynamicPage() {
  const { t, i18n } = useTranslation();
  const { slug = '' } = useParams();
  const appName = useConfig().app.name;
  const query = useQuery({
    queryKey: ['page', slug],
    queryFn: () => api.get<PageResource>(`/api/pages/${encodeURIComponent(slug)}`),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });

  const pageTitle = query.data?.data.attributes.title;
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} · ${appName}` : appName;
  }, [pageTitle, appName]);

  if (query.isPending) return <PageLoader />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) return <NotFoundPage />;
    return (
      <p role="alert" className="mx-auto max-w-3xl px-4 py-24 text-center text-muted">
        {t('popup_error.message')}
      </p>
    );
  }

  const { title, html, updated_at } = query.data.data.attributes;
  return (
    <article className="mx-auto max-w-3xl px-4 py-16 sm:px-6 sm:py-24">
      <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">
        {t('page.updated', {
          date: formatDate(updated_at, i18n.language),
        })}
      </p>
      <h1 className="mt-3 font-display text-4xl font-semibold tracking-tight sm:text-5xl">{title}</h1>
      <MarkdownContent html={html} className="mt-10" />
    </article>
  );
}
