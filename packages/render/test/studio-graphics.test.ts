import { describe, expect, it } from 'vitest';
import {
  chooseGraphics,
  closeSharedBrowser,
  isSoftwareRenderer,
  sharedBrowser,
  studioGraphics,
  type GraphicsProbe,
} from '../src/engines/studio/browser';

/** A machine with these files and folders (folder -> entries) and this environment. */
function machine(files: Record<string, string[]>, env: NodeJS.ProcessEnv = {}): GraphicsProbe {
  return {
    env,
    exists: (path) => path in files,
    list: (dir) => files[dir] ?? [],
  };
}

const MESA_ICDS = { '/usr/share/vulkan/icd.d': ['intel_icd.x86_64.json', 'lvp_icd.x86_64.json'] };

describe('studio graphics: GPU where the machine has one, SwiftShader otherwise', () => {
  it('draws on the CPU when no GPU device is present, even with software Vulkan drivers installed', () => {
    expect(chooseGraphics(machine({ '/usr/share/vulkan/icd.d': ['lvp_icd.x86_64.json'] })).backend).toBe(
      'swiftshader',
    );
  });

  it('uses an NVIDIA GPU over Vulkan when its driver is installed, else over EGL', () => {
    const nvidia = { '/dev/nvidia0': [], '/etc/vulkan/icd.d': ['nvidia_icd.json'] };
    expect(chooseGraphics(machine(nvidia))).toMatchObject({
      backend: 'vulkan',
      reason: expect.stringContaining('/dev/nvidia0'),
    });
    expect(chooseGraphics(machine({ '/dev/nvidia0': [], ...MESA_ICDS })).backend).toBe('egl');
  });

  it('uses a DRM render node (AMD, Intel) over Vulkan unless only lavapipe is there', () => {
    expect(chooseGraphics(machine({ '/dev/dri': ['card0', 'renderD128'], ...MESA_ICDS })).backend).toBe(
      'vulkan',
    );
    const softwareOnly = { '/dev/dri': ['renderD128'], '/usr/share/vulkan/icd.d': ['lvp_icd.x86_64.json'] };
    expect(chooseGraphics(machine(softwareOnly)).backend).toBe('egl');
    expect(chooseGraphics(machine({ '/dev/dri': ['card0'] })).backend).toBe('swiftshader');
  });

  it('obeys ATELIER_STUDIO_GPU: off keeps a GPU machine on SwiftShader, vulkan or egl forces that path', () => {
    const gpu = { '/dev/nvidia0': [], '/etc/vulkan/icd.d': ['nvidia_icd.json'] };
    expect(chooseGraphics(machine(gpu, { ATELIER_STUDIO_GPU: 'off' }))).toEqual({
      backend: 'swiftshader',
      reason: 'ATELIER_STUDIO_GPU=off',
    });
    expect(chooseGraphics(machine({}, { ATELIER_STUDIO_GPU: 'egl' })).backend).toBe('egl');
  });

  it('counts a GPU launch that still draws in software as no GPU', () => {
    expect(
      isSoftwareRenderer('ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)), SwiftShader driver)'),
    ).toBe(true);
    expect(isSoftwareRenderer('ANGLE (Mesa, llvmpipe (LLVM 15.0.6, 256 bits), OpenGL 4.5)')).toBe(true);
    expect(isSoftwareRenderer('ANGLE (NVIDIA, Vulkan 1.3.277 (NVIDIA H200), NVIDIA)')).toBe(false);
  });

  it('launches the browser on the backend chosen for this machine', async () => {
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const listening = () => signals.map((signal) => process.listenerCount(signal));
    const before = listening();
    await sharedBrowser();
    try {
      expect(studioGraphics()?.backend).toBe(chooseGraphics().backend);
      // The server's shutdown is its own: the browser adds no handler that would exit the process first.
      expect(listening()).toEqual(before);
    } finally {
      await closeSharedBrowser();
    }
  });
});
