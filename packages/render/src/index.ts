// Public API of @atelier/render: import a model, build a scene, render stills and turntables.
export * from './types';
export { encodePng, writePng, type RawImage, type PngOptions } from './encode/png';
export { openVideoSink, type VideoSink, type VideoSinkOptions } from './encode/video';
export { probeVideo, type VideoProbe } from './encode/probe';
export { extractSpinFrames, SPIN_FRAMES, type SpinFrameOptions } from './encode/spin-frames';
export {
  assertModelSize,
  importModel,
  MAX_MODEL_BYTES,
  type ImportOptions,
  type ImportSource,
} from './import/import-model';
export { closeImportWorkers } from './import/import-workers';
export { detectFormat, SUPPORTED_EXTENSIONS } from './import/detect-format';
export { simplifyModel } from './import/simplify';
export { listCategories, findCategory, type Category } from './scene/categories';
export { COLOURABLE_FINISHES, finishOf, MATERIALS, material, type MaterialName } from './scene/materials';
export {
  buildScene,
  deepMerge,
  materialForPart,
  sceneSchema,
  type DeepPartial,
  type SceneOverrides,
} from './scene/build-scene';
export { frameCamera, framingPoints, cameraBasis, type CameraPose, type Vec3 } from './scene/framing';
export { stillCameras, turntableCamera, outputNames, fileSafe } from './scene/outputs';
export { createEngine, ENGINE_NAMES, type EngineName, type EngineOptions } from './engines/create-engine';
export type { DraftEngineOptions } from './engines/draft/draft-engine';
export { closeDraftWorkers } from './engines/draft/raster-pool';
export {
  exportModel,
  type ExportFormat,
  type ExportOptions,
  type ExportVariant,
} from './export/export-model';
export {
  buildShopImage,
  checkShopImage,
  renderXmp,
  RENDER_SOURCE_TYPE,
  type ShopImageCheck,
  type ShopImageSpec,
} from './encode/shop-image';
