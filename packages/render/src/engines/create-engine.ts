import { RenderError, type Engine } from '../types';
import { DraftEngine, type DraftEngineOptions } from './draft/draft-engine';

export type EngineName = 'draft' | 'studio';
export const ENGINE_NAMES: readonly EngineName[] = ['draft', 'studio'];

export interface EngineOptions {
  draft?: DraftEngineOptions;
}

/**
 * An engine by name. The studio engine (three.js in headless Chromium) is imported only when asked
 * for, so processes that render drafts never load the browser tooling.
 */
export async function createEngine(name: EngineName, options: EngineOptions = {}): Promise<Engine> {
  if (name === 'draft') return new DraftEngine(options.draft);
  if (name === 'studio') {
    let studio: { createStudioEngine: () => Engine | Promise<Engine> };
    try {
      studio = await import('./studio/index');
    } catch (error) {
      throw new RenderError(
        'engine_unavailable',
        `the studio engine could not be loaded: ${(error as Error).message}`,
      );
    }
    return studio.createStudioEngine();
  }
  throw new RenderError(
    'engine_unavailable',
    `unknown engine "${String(name)}" (known: ${ENGINE_NAMES.join(', ')})`,
  );
}
