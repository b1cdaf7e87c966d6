// Public API of @atelier/render: import a model, build a scene, render stills and turntables.
export * from './types';
export { encodePng, writePng, type RawImage, type PngOptions } from './encode/png';
export { openVideoSink, type VideoSink, type VideoSinkOptions } from './encode/video';
export { probeVideo, type VideoProbe } from './encode/probe';
