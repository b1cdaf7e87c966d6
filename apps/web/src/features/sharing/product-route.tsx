import { Navigate } from 'react-router';
import { ProductPage } from './product-page';
import { useShareVisit } from './share-layout';
import { isLocked, productGatePath } from './sharing-api';

/**
 * /share/{token}/product inside the app, in the share pages' frame: where the password gate comes
 * back to. A first visit of the address loads the page's own entry instead (product-main.tsx).
 */
export function ProductRoute() {
  const { token, share } = useShareVisit();
  if (isLocked(share)) return <Navigate to={productGatePath(token)} replace />;
  return <ProductPage token={token} />;
}
