/** A square of the source image, in its pixels. */
export interface SquareCrop {
  x: number;
  y: number;
  side: number;
}

export const MAX_ZOOM = 4;

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);

/**
 * The square a zoom and a centre select: zoom 1 is the largest square the image holds, zoom 2 half
 * its side. The square never leaves the image, however far the centre was dragged.
 */
export function squareCrop(
  width: number,
  height: number,
  zoom: number,
  centre: { x: number; y: number },
): SquareCrop {
  const side = Math.min(width, height) / clamp(zoom, 1, MAX_ZOOM);
  return {
    x: clamp(centre.x - side / 2, 0, width - side),
    y: clamp(centre.y - side / 2, 0, height - side),
    side,
  };
}

/** The centre of a crop, to pan from: a drag past the edge does not build up an offset to undo. */
export function cropCentre(crop: SquareCrop): { x: number; y: number } {
  return { x: crop.x + crop.side / 2, y: crop.y + crop.side / 2 };
}

/** Side of the image sent to the server: twice its largest size, so its re-encoding only shrinks. */
export const CROPPED_SIDE = 256;

/** The crop drawn onto a canvas of `side` pixels. */
export function drawCrop(
  canvas: HTMLCanvasElement,
  image: CanvasImageSource,
  crop: SquareCrop,
  side: number,
) {
  canvas.width = side;
  canvas.height = side;
  const context = canvas.getContext('2d');
  if (!context) return;
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, crop.x, crop.y, crop.side, crop.side, 0, 0, side, side);
}

/** The crop as an image file (WebP where the browser writes it, else PNG; the server reads both). */
export function croppedImage(image: CanvasImageSource, crop: SquareCrop): Promise<Blob> {
  const canvas = document.createElement('canvas');
  drawCrop(canvas, image, crop, CROPPED_SIDE);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The crop could not be encoded'))),
      'image/webp',
      0.92,
    ),
  );
}
