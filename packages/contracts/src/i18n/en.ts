import { enFiles } from './en-files';
import { enProjects } from './en-projects';
import { enServer } from './en-server';
import { enWeb } from './en-web';

/** Default English strings, flat dotted keys; the server seeds the translations table from them. */
export const en: Record<string, string> = { ...enWeb, ...enFiles, ...enProjects, ...enServer };
