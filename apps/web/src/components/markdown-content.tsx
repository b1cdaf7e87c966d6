import { cn } from '../lib/cn';

/**
 * A content page's HTML as the server rendered and sanitised it (markdown-it without raw HTML, then
 * sanitize-html): the only place the web inserts server HTML, styled like the rest of the app.
 */
export function MarkdownContent({ html, className }: { html: string; className?: string }) {
  return (
    <div
      className={cn(
        'text-base leading-relaxed text-ink/85',
        '[&>*+*]:mt-5 [&>:first-child]:mt-0 [&_h1]:font-display [&_h1]:text-3xl [&_h1]:font-semibold [&_h1]:tracking-tight [&_h1]:text-ink',
        '[&_h2]:mt-10 [&_h2]:font-display [&_h2]:text-2xl [&_h2]:font-semibold [&_h2]:tracking-tight [&_h2]:text-ink',
        '[&_h3]:mt-8 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:text-ink [&_h4]:font-semibold',
        '[&_a]:font-medium [&_a]:text-accent [&_a]:underline [&_a]:decoration-accent/40 [&_a]:underline-offset-2 hover:[&_a]:decoration-accent',
        '[&_strong]:font-semibold [&_strong]:text-ink',
        '[&_ul]:list-disc [&_ul]:pl-6 [&_ol]:list-decimal [&_ol]:pl-6 [&_li+li]:mt-1.5 [&_li]:marker:text-muted',
        '[&_blockquote]:border-l-4 [&_blockquote]:border-accent/40 [&_blockquote]:pl-4 [&_blockquote]:text-muted',
        '[&_code]:rounded-md [&_code]:bg-surface-2 [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-sm',
        '[&_pre]:overflow-x-auto [&_pre]:rounded-xl [&_pre]:bg-surface-2 [&_pre]:p-4 [&_pre_code]:bg-transparent [&_pre_code]:p-0',
        '[&_hr]:border-line [&_img]:max-w-full [&_img]:rounded-xl',
        '[&_table]:w-full [&_table]:border-collapse [&_table]:text-sm [&_td]:border [&_td]:border-line [&_td]:px-3 [&_td]:py-2 [&_th]:border [&_th]:border-line [&_th]:bg-surface-2 [&_th]:px-3 [&_th]:py-2 [&_th]:text-left',
        className,
      )}
      // Sanitised on the server: only Markdown's tags, http(s)/mailto links, no scripts or handlers.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
