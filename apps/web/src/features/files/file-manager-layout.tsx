import { createContext, useContext, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { SectionFrame, SectionNav } from '../../components/sidebar/section-nav';
import { FILE_MANAGER_VIEWS } from './file-manager-views';

/** Where the open view's folder tree goes: under its entry in the navigation column (wide screens). */
const FolderTreeHost = createContext<HTMLElement | null>(null);

export const useFolderTreeHost = () => useContext(FolderTreeHost);

/**
 * The frame of the file manager's screens, with its own navigation: My files, Recent uploads,
 * Favourites, Shared with me, Team folders, My shared links, Upload requests and Trash.
 */
export function FileManagerLayout() {
  const { t } = useTranslation();
  const [treeHost, setTreeHost] = useState<HTMLElement | null>(null);
  return (
    <SectionFrame
      nav={
        <SectionNav
          label={t('file_manager.navigation')}
          title={t('files.area')}
          items={FILE_MANAGER_VIEWS}
          underOpen={
            <div
              ref={setTreeHost}
              className="mt-1 mb-2 ml-4 hidden border-l border-line pl-1 xl:block xl:empty:hidden"
            />
          }
        />
      }
    >
      <FolderTreeHost.Provider value={treeHost}>
        <Outlet />
      </FolderTreeHost.Provider>
    </SectionFrame>
  );
}
