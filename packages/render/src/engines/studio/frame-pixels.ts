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
