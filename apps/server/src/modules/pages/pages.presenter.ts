import type { PageAttributes } from '@atelier/contracts';
import type { PageRow } from '../../db/schema';
import { renderMarkdown } from './markdown.renderer';

export function presentPage(page: PageRow) {
  const attributes: PageAttributes = {
    slug: page.slug,
    title: page.title,
    content: page.content,
    html: renderMarkdown(page.content),
    visibility: page.visibility === 1,
    updated_at: page.updated_at,
  };
  return { id: page.slug, type: 'page' as const, attributes };
}
