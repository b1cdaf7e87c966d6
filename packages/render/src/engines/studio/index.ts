// The studio engine, loaded lazily by createEngine('studio') so draft-only processes never touch Chromium.
import type { Engine } from '../../types';
import { StudioEngine } from './studio-engine';

export { StudioEngine } from './studio-engine';
export { chooseGraphics, findChromium, studioGraphics, CHROMIUM_FLAGS } from './browser';
export { closeStudio } from './studio-runtime';

export function createStudioEngine(): Engine {
  return new StudioEngine();
}
