// The studio's screens, loaded on demand by the router (one chunk for the whole area).
export { CreateProjectPage } from './create-project-page';
export { GalleryPage } from './gallery-page';
export { ProjectCustomizePage } from './project-customize-page';
export { ProjectFilesPage } from './project-files-page';
export { PlatformOutputPage, ProjectOutputPage } from './project-output-page';
export { ProjectsPage } from './projects-page';
export { StudioSettingsPage } from './studio-settings-page';
