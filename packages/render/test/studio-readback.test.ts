import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodePng } from '../src/encode/png';
import { flipRows, unpremultiply } from '../src/engines/studio/frame-pixels';
import { FrameSocket, type FrameTransport } from '../src/engines/studio/page/frame-socket';

/** A 2 × 3 RGBA frame whose pixel (x, y) counting rows from the bottom is [x, y, 10·x + y, alpha]. */
function bottomUpFrame(alpha = 255): Buffer {
  const frame = Buffer.alloc(2 * 3 * 4);
  for (let y = 0; y < 3; y++)
    for (let x = 0; x < 2; x++) frame.set([x, y, 10 * x + y, alpha], (y * 2 + x) * 4);
  return frame;
}

describe('studio readback', () => {
  it('flips the bottom-up rows WebGL reads into top-down image rows, in place', () => {
    const frame = bottomUpFrame();
    const flipped = flipRows(frame, 2, 3);
    expect(flipped).toBe(frame);
    expect([...flipped]).toEqual([
      0, 2, 2, 255, 1, 2, 12, 255, 0, 1, 1, 255, 1, 1, 11, 255, 0, 0, 0, 255, 1, 0, 10, 255,
    ]);
    // Even heights swap every row; flipping twice restores the frame.
    const even = Buffer.from([...Array(2 * 4 * 4).keys()]);
    expect([...flipRows(flipRows(Buffer.from(even), 2, 4), 2, 4)]).toEqual([...even]);
    expect([...flipRows(Buffer.from(even), 2, 4).subarray(0, 8)]).toEqual([24, 25, 26, 27, 28, 29, 30, 31]);
  });

  it('turns premultiplied colour into straight alpha, rounding and clamping', () => {
    const pixels = Buffer.from([
      ...[64, 32, 0, 128], // half covered: colour doubles
      ...[1, 1, 1, 3], // 1 / 3 of 255 rounds to 85
      ...[200, 0, 0, 100], // over-bright after blending: clamped
      ...[10, 20, 30, 0], // fully transparent: left alone
      ...[200, 100, 50, 255], // opaque: left alone
    ]);
    expect([...unpremultiply(pixels)]).toEqual([
      ...[128, 64, 0, 128],
      ...[85, 85, 85, 3],
      ...[255, 0, 0, 100],
      ...[10, 20, 30, 0],
      ...[200, 100, 50, 255],
    ]);
  });

  it('writes a transparent frame as a PNG with the colours that were drawn', async () => {
    // Red drawn at half coverage over a transparent canvas reads back as (128, 0, 0, 128).
    const frame = Buffer.alloc(2 * 2 * 4);
    frame.set([128, 0, 0, 128], 0); // bottom-left
    frame.set([0, 0, 255, 255], 12); // top-right
    const png = await encodePng({
      width: 2,
      height: 2,
      channels: 4,
      data: unpremultiply(flipRows(frame, 2, 2)),
    });
    const { data } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([...data]).toEqual([...[0, 0, 0, 0], ...[0, 0, 255, 255], ...[255, 0, 0, 128], ...[0, 0, 0, 0]]);
  });
});

/** A stand-in WebSocket: records what the page sends and lets the test play Node's acknowledgements. */
function fakeTransport(): { transport: FrameTransport; sent: Uint8Array[]; emit(type: string): void } {
  const listeners = new Map<string, Array<() => void>>();
  const sent: Uint8Array[] = [];
  const transport = {
    send: (frame: Uint8Array) => sent.push(frame),
    addEventListener: (type: string, listener: () => void) =>
      listeners.set(type, [...(listeners.get(type) ?? []), listener]),
  } as unknown as FrameTransport;
  const emit = (type: string): void => {
    for (const listener of listeners.get(type) ?? []) listener();
  };
  return { transport, sent, emit };
}

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe('studio frame channel (page side)', () => {
  it('renders no more than the window ahead of acknowledgements and ends when all are acknowledged', async () => {
    const transport = fakeTransport();
    const socket = new FrameSocket(transport.transport);
    const rendered: number[] = [];
    let done = false;
    const run = socket
      .sendPaced(5, 2, (i) => {
        rendered.push(i);
        return Uint8Array.of(i);
      })
      .then((sent) => ((done = true), sent));
    await tick();
    expect(rendered).toEqual([0, 1]);
    transport.emit('message');
    await tick();
    expect(rendered).toEqual([0, 1, 2]);
    for (let i = 0; i < 3; i++) {
      transport.emit('message');
      await tick();
    }
    expect(rendered).toEqual([0, 1, 2, 3, 4]);
    expect(done).toBe(false);
    transport.emit('message');
    expect(await run).toBe(5);
    expect(transport.sent.map((f) => f[0])).toEqual([0, 1, 2, 3, 4]);
  });

  it('stops at once when cancelled, and runs again after a reset', async () => {
    const transport = fakeTransport();
    const socket = new FrameSocket(transport.transport);
    const run = socket.sendPaced(10, 1, (i) => Uint8Array.of(i));
    await tick();
    socket.cancel();
    await expect(run).rejects.toThrow('cancelled');
    expect(transport.sent).toHaveLength(1);
    socket.reset();
    const again = socket.sendPaced(1, 1, (i) => Uint8Array.of(i));
    transport.emit('message');
    expect(await again).toBe(1);
  });

  it('opens with its WebSocket and fails when it cannot', async () => {
    const good = fakeTransport();
    const opened = new FrameSocket(good.transport).opened;
    good.emit('open');
    await expect(opened).resolves.toBeUndefined();
    const bad = fakeTransport();
    const failed = new FrameSocket(bad.transport).opened;
    bad.emit('error');
    await expect(failed).rejects.toThrow('frame channel failed to open');
  });
});
