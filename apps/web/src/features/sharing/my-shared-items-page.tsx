import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FileBrowser } from '../files/file-browser';
import type { ItemExtras } from '../files/file-actions';
import { ShareState } from './shared-badge';

/** /platform/shared — the owner's items that have a public link, with the state of each link. */
export function MySharedItemsPage() {
  const { t } = useTranslation();
  const extras = useMemo<ItemExtras>(
    () => ({
      column: {
        label: t('sharing.link_column'),
        cell: (item, compact) => {
          const share = item.relationships.shared.data;
          return share && <ShareState share={share} compact={compact} />;
        },
      },
    }),
    [t],
  );
  return <FileBrowser variant="shared" folderId={null} eyebrow={t('sharing.area')} extras={extras} />;
}
