// Types for build-stamp.mjs, which `npm start` runs with plain Node before anything is installed.
export function inputsHash(root: string, folder: string): string;
export function isBuiltFrom(output: string, hash: string): boolean;
export function markBuiltFrom(output: string, hash: string): void;
