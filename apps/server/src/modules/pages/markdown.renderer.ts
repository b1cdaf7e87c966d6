import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

/**
 * The admin's Markdown as HTML the web inserts as it is. markdown-it is told not to pass raw HTML
 * through (it comes out as text) and refuses javascript:, vbscript: and data: links; sanitize-html
 * then keeps only the tags Markdown makes and only http(s), mailto and relative links, so whatever
 * slipped through either one cannot run. Every link opens without giving the page a handle on ours.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: true });

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'em',
    'strong',
    's',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title'],
    ol: ['start'],
    th: ['style'],
    td: ['style'],
  },
  allowedStyles: { '*': { 'text-align': [/^(left|right|center)$/] } },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: {
        ...attribs,
        rel: 'noopener noreferrer',
        ...(isExternal(attribs.href) ? { target: '_blank' } : {}),
      },
    }),
  },
};

function isExternal(href: string | undefined): boolean {
  return href !== undefined && /^https?:\/\//i.test(href);
}

export function renderMarkdown(source: string): string {
  return sanitizeHtml(markdown.render(source), SANITIZE);
}
