// The page's RGBA frames as images want them. WebGL reads rows bottom-up, and a transparent canvas
// holds premultiplied colour; PNG and ffmpeg's rawvideo take top-down rows, PNG straight alpha.

/** Flips rows in place so the image starts at its top-left corner. */
export function flipRows(pixels: Buffer, width: number, height: number): Buffer {
  const row = width * 4;
  const spare = Buffer.allocUnsafe(row);
  for (let top = 0, bottom = height - 1; top < bottom; top++, bottom--) {
    pixels.copy(spare, 0, top * row, top * row + row);
    pixels.copy(pixels, top * row, bottom * row, bottom * row + row);
    spare.copy(pixels, bottom * row);
  }
  return pixels;
}

/** Premultiplied to straight alpha, in place; fully transparent and fully opaque pixels are left as they are. */
export function unpremultiply(pixels: Buffer): Buffer {
  for (let i = 0; i < pixels.length; i += 4) {
    const a = pixels[i + 3]!;
    if (a === 0 || a === 255) continue;
    const k = 255 / a;
    pixels[i] = Math.min(255, Math.round(pixels[i]! * k));
    pixels[i + 1] = Math.min(255, Math.round(pixels[i + 1]! * k));
    pixels[i + 2] = Math.min(255, Math.round(pixels[i + 2]! * k));
  }
  return pixels;
}

/**
 * Copies a yuv420p image of `region` (its Y plane, then U, then V, each top row first) into the
 * same place of a whole yuv420p frame, in place. The region's corner and size must be even.
 */
export function layYuvRegion(
  frame: Buffer,
  width: number,
  height: number,
  region: { x: number; y: number; width: number; height: number },
  image: Buffer,
): Buffer {
  const planes = [
    { scale: 1, at: 0, from: 0 },
    { scale: 2, at: width * height, from: region.width * region.height },
    { scale: 2, at: (width * height * 5) / 4, from: (region.width * region.height * 5) / 4 },
  ];
  for (const { scale, at, from } of planes) {
    const rowBytes = region.width / scale;
    for (let row = 0; row < region.height / scale; row++) {
      const source = from + row * rowBytes;
      image.copy(
        frame,
        at + (region.y / scale + row) * (width / scale) + region.x / scale,
        source,
        source + rowBytes,
      );
    }
  }
  return frame;
}
