import { useTranslation } from 'react-i18next';
import { FileBrowser } from '../files/file-browser';

/** /platform/shared — the owner's items that have a public link, with the state of each link. */
export function MySharedItemsPage() {
  const { t } = useTranslation();
  return <FileBrowser variant="shared" folderId={null} eyebrow={t('sharing.area')} />;
}
