import sharp from 'sharp';

/** What a marketplace asks of one listing image (the presets of @atelier/contracts carry these). */
export interface ShopImageSpec {
  width: number;
  height: number;
  /** Pure white (255, 255, 255) around the product is required. */
  whiteBackground: boolean;
  /** The product's longer extent over the frame's, along the same axis; null where no rule says. */
  minFill: number | null;
  maxFill: number | null;
}

/**
 * The IPTC digital source type a render carries: "created by a human using digital tools", which
 * is what a render of a CAD or 3D model made by its designer is (not a capture of a camera, and not
 * trained algorithmic media).
 */
export const RENDER_SOURCE_TYPE = 'http://cv.iptc.org/newscodes/digitalsourcetype/digitalCreation';

/** A pixel differing from the background by more than this (any channel) is the product's. */
const TOLERANCE = 8;
/** How much of the frame the product's longer extent takes where no rule says (a margin all round). */
const DEFAULT_FILL = 0.8;
/** Aimed at inside a minimum rule, so resampling never leaves the product a pixel short of it. */
const FILL_MARGIN = 0.04;

interface Rgba {
  width: number;
  height: number;
  data: Buffer;
}

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

async function rgbaOf(image: sharp.Sharp): Promise<Rgba> {
  const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/** The pixels of the outer one-pixel frame, as offsets into the RGBA data. */
function borderOffsets({ width, height }: Rgba): number[] {
  const offsets: number[] = [];
  for (let x = 0; x < width; x++) offsets.push(x * 4, ((height - 1) * width + x) * 4);
  for (let y = 1; y < height - 1; y++) offsets.push(y * width * 4, (y * width + width - 1) * 4);
  return offsets;
}

/** The border's mean colour, rounded: a render's backdrop, whatever the engine painted there. */
function borderColour(image: Rgba): [number, number, number] {
  const offsets = borderOffsets(image);
  const sum = [0, 0, 0];
  for (const o of offsets) for (let c = 0; c < 3; c++) sum[c]! += image.data[o + c]!;
  return sum.map((s) => Math.round(s / offsets.length)) as [number, number, number];
}

function rawOf(image: Rgba): sharp.Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } });
}

/**
 * The bounding box of the pixels that differ from the background colour by more than TOLERANCE in a
 * channel, null for an image of the background alone. libvips finds it (its trim, line-art mode:
 * no smoothing, so a thin part counts), so a 2000 px frame costs the event loop nothing.
 */
async function contentBox(image: Rgba, background: readonly number[]): Promise<Box | null> {
  const opaque = rawOf(image).removeAlpha();
  const { channels } = await opaque.clone().stats();
  if (
    channels.every((band, c) => Math.max(band.max - background[c]!, background[c]! - band.min) <= TOLERANCE)
  )
    return null;
  const { info } = await opaque
    .trim({ background: hex(background), threshold: TOLERANCE, lineArt: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    left: -(info.trimOffsetLeft ?? 0),
    top: -(info.trimOffsetTop ?? 0),
    width: info.width,
    height: info.height,
  };
}

function fillOf(box: Box | null, image: { width: number; height: number }): number {
  return box ? Math.max(box.width / image.width, box.height / image.height) : 0;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** An XMP packet saying the image is a render, with the description shops and search engines read. */
export function renderXmp(description: string): string {
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about=""',
    ' xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"',
    ' xmlns:dc="http://purl.org/dc/elements/1.1/"',
    ' xmlns:xmp="http://ns.adobe.com/xap/1.0/"',
    ` Iptc4xmpExt:DigitalSourceType="${RENDER_SOURCE_TYPE}"`,
    ' xmp:CreatorTool="Atelier">',
    `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(description)}</rdf:li></rdf:Alt></dc:description>`,
    '</rdf:Description>',
    '</rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="r"?>',
  ].join('');
}

/**
 * One listing image from a render: a transparent render goes onto white (a marketplace shows
 * transparency as it likes), an opaque one keeps its backdrop; the product is cropped to its
 * bounding box, scaled so its longer extent fills the frame as the spec asks, and centred; the PNG
 * carries XMP saying it is a render.
 */
export async function buildShopImage(
  source: Buffer | Uint8Array,
  spec: ShopImageSpec,
  description = 'Rendered from a 3D model',
): Promise<Buffer> {
  const decoded = await rgbaOf(sharp(source));
  const translucent = !(await rawOf(decoded).stats()).isOpaque;
  const flat = translucent ? await rgbaOf(rawOf(decoded).flatten({ background: '#ffffff' })) : decoded;
  const background = translucent ? ([255, 255, 255] as const) : borderColour(flat);
  const box = (await contentBox(flat, background)) ?? {
    left: 0,
    top: 0,
    width: flat.width,
    height: flat.height,
  };
  const target =
    spec.minFill === null
      ? Math.min(DEFAULT_FILL, spec.maxFill ?? 1)
      : Math.min(spec.minFill + FILL_MARGIN, spec.maxFill === null ? 0.96 : spec.maxFill - FILL_MARGIN / 2);
  const scale = Math.min((spec.width * target) / box.width, (spec.height * target) / box.height);
  const width = Math.max(1, Math.min(spec.width, Math.round(box.width * scale)));
  const height = Math.max(1, Math.min(spec.height, Math.round(box.height * scale)));
  const left = Math.floor((spec.width - width) / 2);
  const top = Math.floor((spec.height - height) / 2);
  const product = await rawOf(flat)
    .extract(box)
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  return sharp(product, { raw: { width, height, channels: 4 } })
    .extend({
      left,
      top,
      right: spec.width - width - left,
      bottom: spec.height - height - top,
      background: { r: background[0], g: background[1], b: background[2], alpha: 1 },
    })
    .removeAlpha()
    .withXmp(renderXmp(description))
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
}

/** What `checkShopImage` measured; the contracts' ShopImageCheck has the same shape. */
export interface ShopImageCheck {
  passed: boolean;
  size: { passed: boolean; width: number; height: number; expected_width: number; expected_height: number };
  background: { passed: boolean; colour: string; white_share: number; white_required: boolean };
  fill: { passed: boolean; ratio: number; min: number | null; max: number | null };
  marked: { passed: boolean; digital_source_type: string | null };
}

function hex(colour: readonly number[]): string {
  return `#${colour.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** The IPTC digital source type an XMP packet names, if any. */
function digitalSourceType(xmp: Buffer | undefined): string | null {
  if (!xmp) return null;
  const text = xmp.toString('utf8');
  const attribute = /Iptc4xmpExt:DigitalSourceType="([^"]{1,200})"/.exec(text);
  if (attribute) return attribute[1]!;
  const element = /<Iptc4xmpExt:DigitalSourceType>([^<]{1,200})</.exec(text);
  return element ? element[1]!.trim() : null;
}

/**
 * Checks one listing image against its spec, from the image alone: its size; the border (every
 * pixel of the outer frame opaque pure white where that is required, a uniform backdrop otherwise);
 * the fill ratio (the bounding box of what differs from the border's colour); and the XMP saying
 * it is a render.
 */
export async function checkShopImage(
  image: Buffer | Uint8Array,
  spec: ShopImageSpec,
): Promise<ShopImageCheck> {
  const input = sharp(image);
  const { xmp } = await input.metadata();
  const rgba = await rgbaOf(input);
  const border = borderOffsets(rgba);
  let white = 0;
  for (const o of border)
    if (
      rgba.data[o] === 255 &&
      rgba.data[o + 1] === 255 &&
      rgba.data[o + 2] === 255 &&
      rgba.data[o + 3] === 255
    )
      white++;
  const whiteShare = white / border.length;
  const colour = borderColour(rgba);
  let uniform = 0;
  for (const o of border)
    if (
      rgba.data[o + 3] === 255 &&
      [0, 1, 2].every((c) => Math.abs(rgba.data[o + c]! - colour[c]!) <= TOLERANCE)
    )
      uniform++;
  const ratio = fillOf(await contentBox(rgba, colour), rgba);
  const size = {
    passed: rgba.width === spec.width && rgba.height === spec.height,
    width: rgba.width,
    height: rgba.height,
    expected_width: spec.width,
    expected_height: spec.height,
  };
  const background = {
    passed: spec.whiteBackground ? whiteShare === 1 : uniform / border.length >= 0.99,
    colour: hex(colour),
    white_share: Math.round(whiteShare * 10_000) / 10_000,
    white_required: spec.whiteBackground,
  };
  const fill = {
    passed:
      ratio > 0 &&
      (spec.minFill === null || ratio >= spec.minFill) &&
      (spec.maxFill === null || ratio <= spec.maxFill),
    ratio: Math.round(ratio * 10_000) / 10_000,
    min: spec.minFill,
    max: spec.maxFill,
  };
  const sourceType = digitalSourceType(xmp);
  const marked = { passed: sourceType === RENDER_SOURCE_TYPE, digital_source_type: sourceType };
  return {
    passed: size.passed && background.passed && fill.passed && marked.passed,
    size,
    background,
    fill,
    marked,
  };
}
