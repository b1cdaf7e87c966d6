import { Check, Copy } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, type ButtonProps } from '../../components/ui/button';
import { cn } from '../../lib/cn';

/** How long a button says "Copied" after a copy. */
const COPIED_FEEDBACK_MS = 2000;

/** Copies text; outside secure contexts (no clipboard API) through a selected, unseen text area. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'fixed -left-[9999px] opacity-0';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}

/** A button that copies `link` and says so for a moment. */
export function CopyLinkButton({
  link,
  label,
  ...props
}: Omit<ButtonProps, 'onClick' | 'children'> & { link: string; label?: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  return (
    <Button type="button" onClick={() => void copyText(link).then(setCopied)} aria-live="polite" {...props}>
      {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
      {copied ? t('sharing.copied') : (label ?? t('sharing.copy'))}
    </Button>
  );
}

const FIELD =
  'min-w-0 flex-1 rounded-xl border border-line bg-surface-2 px-3.5 font-mono text-[13px] text-ink focus:border-accent focus:ring-3 focus:ring-accent/15 focus:outline-none';

/**
 * A link to hand on, or a code to paste (`code`: several lines, an embed snippet): shown whole,
 * selected on focus, with its copy button.
 */
export function CopyLinkField({
  link,
  label,
  code = false,
}: {
  link: string;
  /** What the field holds; "Link" when left out. */
  label?: string;
  code?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-ink">
        {label ?? t('sharing.link')}
      </label>
      <div className="flex gap-2">
        {code ? (
          <textarea
            id={id}
            readOnly
            rows={3}
            value={link}
            onFocus={(event) => event.target.select()}
            className={cn(FIELD, 'resize-none py-2.5 leading-snug break-all')}
          />
        ) : (
          <input
            id={id}
            readOnly
            value={link}
            onFocus={(event) => event.target.select()}
            className={cn(FIELD, 'h-11')}
          />
        )}
        <CopyLinkButton link={link} className="h-11" />
      </div>
    </div>
  );
}
