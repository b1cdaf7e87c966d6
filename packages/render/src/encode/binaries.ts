import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The binary shipped by an npm installer package, else the same tool on PATH. */
function resolveBinary(installerPackage: string, tool: string): string {
  try {
    const packageDir = dirname(require.resolve(`${installerPackage}/package.json`));
    const binary = join(packageDir, tool);
    if (existsSync(binary)) return binary;
  } catch {
    // Package absent on this platform: fall back to the system binary.
  }
  return tool;
}

export const ffmpegBinary = (): string => resolveBinary('@ffmpeg-installer/linux-x64', 'ffmpeg');
export const ffprobeBinary = (): string => resolveBinary('@ffprobe-installer/linux-x64', 'ffprobe');
