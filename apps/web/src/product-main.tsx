import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/app-providers';
import { loadSessionStrings } from './app/boot';
import { createQueryClient } from './app/query-client';
import { ProductEntry } from './features/sharing/product-entry';
import { productQuery } from './features/sharing/product-page';
import { shareDetailQuery } from './features/sharing/sharing-api';
import { applyStoredTheme } from './features/theme/theme-provider';
import { prefetchLikelyStrings } from './lib/i18n';
import './index.css';

// The product page's own entry (product.html, served for /share/{token}/product): the page, its
// frame, the strings and the theme, without the app's router and screens, so a visitor from a shop or
// a pasted link downloads a fraction of the app (docs/product-page.md).

applyStoredTheme();
const queryClient = createQueryClient();
const token = /^\/share\/([^/]+)\/product/.exec(window.location.pathname)?.[1] ?? '';
// Everything the first frame waits for is asked for at once: the strings, the share's detail and
// the product (a protected link refuses the product: the detail sends the visitor to its gate), and
// the spin's first frame as soon as the product names it, not once the page has rendered.
prefetchLikelyStrings();
void queryClient.prefetchQuery(shareDetailQuery(token));
void queryClient.fetchQuery(productQuery(token)).then(
  (product) => {
    const first = product.views[0]?.spin[0];
    if (first) new Image().src = first;
  },
  () => undefined,
);
const i18n = await loadSessionStrings(queryClient);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders queryClient={queryClient} i18n={i18n}>
      <ProductEntry token={token} />
    </AppProviders>
  </StrictMode>,
);
