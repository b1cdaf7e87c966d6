import type { PublicConfig } from '@atelier/contracts';
import { useEffect } from 'react';

/** Points a `<link rel>` of the document at the address, or puts the built-in one back. */
function setLink(rel: string, href: string | null, fallback: string | null, type: string): void {
  let link = document.head.querySelector<HTMLLinkElement>(`link[rel="${rel}"]`);
  const target = href ?? fallback;
  if (!target) return link?.remove();
  if (!link) {
    link = document.createElement('link');
    link.rel = rel;
    document.head.append(link);
  }
  link.type = href ? 'image/png' : type;
  link.href = target;
}

/** The favicon and home-screen icon an admin uploaded (appearance settings) replace the built-in ones. */
export function useAppIcons(app: PublicConfig['app']): void {
  useEffect(() => {
    setLink('icon', app.favicon, '/favicon.svg', 'image/svg+xml');
    setLink('apple-touch-icon', app.touch_icon, null, 'image/png');
  }, [app.favicon, app.touch_icon]);
}
