import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildShopImage,
  checkShopImage,
  RENDER_SOURCE_TYPE,
  renderXmp,
  type ShopImageSpec,
} from '../src/index';

const AMAZON: ShopImageSpec = {
  width: 2000,
  height: 2000,
  whiteBackground: true,
  minFill: 0.85,
  maxFill: null,
};
const PINTEREST: ShopImageSpec = {
  width: 1000,
  height: 1500,
  whiteBackground: false,
  minFill: null,
  maxFill: null,
};
const GOOGLE: ShopImageSpec = {
  width: 1500,
  height: 1500,
  whiteBackground: false,
  minFill: 0.75,
  maxFill: 0.9,
};

/** A render as the studio leaves it with `background: transparent`: a shaded part and its soft shadow. */
async function transparentRender(): Promise<Buffer> {
  const width = 640;
  const height = 480;
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      if (x >= 250 && x < 400 && y >= 120 && y < 330) {
        data[o] = 60 + ((x - 250) >> 1);
        data[o + 1] = 90;
        data[o + 2] = 160;
        data[o + 3] = 255;
      } else if (x >= 230 && x < 420 && y >= 330 && y < 345) {
        data[o + 3] = 70; // the contact shadow, kept as alpha
      }
    }
  return sharp(data, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

/** A white frame with a small product in its middle, marked as a render: everything right but the fill. */
async function smallProduct(spec: ShopImageSpec): Promise<Buffer> {
  const product = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#335577' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: spec.width, height: spec.height, channels: 3, background: '#ffffff' } })
    .composite([{ input: product, gravity: 'centre' }])
    .withXmp(renderXmp('small'))
    .png()
    .toBuffer();
}

describe('shop images', () => {
  let render: Buffer;
  beforeAll(async () => {
    render = await transparentRender();
  });

  it('builds each spec at its size, on pure white, filling the frame as asked, marked as a render, and passes its checker', async () => {
    for (const spec of [AMAZON, PINTEREST, GOOGLE]) {
      const image = await buildShopImage(render, spec);
      const meta = await sharp(image).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', spec.width, spec.height]);
      const check = await checkShopImage(image, spec);
      expect(check, JSON.stringify(check)).toMatchObject({ passed: true });
      expect(check.background).toMatchObject({ colour: '#ffffff', white_share: 1 });
      expect(check.marked.digital_source_type).toBe(RENDER_SOURCE_TYPE);
      if (spec.minFill !== null) expect(check.fill.ratio).toBeGreaterThanOrEqual(spec.minFill);
      if (spec.maxFill !== null) expect(check.fill.ratio).toBeLessThanOrEqual(spec.maxFill);
    }
  });

  it('keeps an opaque render’s backdrop, which fails where pure white is required', async () => {
    const grey = await sharp(render).flatten({ background: '#e6e6e6' }).png().toBuffer();
    const image = await buildShopImage(grey, AMAZON);
    const check = await checkShopImage(image, AMAZON);
    expect(check.passed).toBe(false);
    expect(check.background).toMatchObject({ passed: false, colour: '#e6e6e6', white_share: 0 });
    // The same grey backdrop is uniform, which is all Pinterest asks.
    expect((await checkShopImage(await buildShopImage(grey, PINTEREST), PINTEREST)).passed).toBe(true);
  });

  it('fails an image whose product is too small, too large, or whose size is wrong', async () => {
    const small = await checkShopImage(await smallProduct(AMAZON), AMAZON);
    expect(small.passed).toBe(false);
    expect(small.fill).toMatchObject({ passed: false, ratio: 0.1 });
    expect([small.size.passed, small.background.passed, small.marked.passed]).toEqual([true, true, true]);

    // Built for a 95% fill, which passes Google's 90% ceiling.
    const tooLarge = await checkShopImage(
      await buildShopImage(render, { ...GOOGLE, minFill: 0.95, maxFill: null }),
      GOOGLE,
    );
    expect([tooLarge.passed, tooLarge.fill.passed, tooLarge.size.passed]).toEqual([false, false, true]);

    const amazon = await buildShopImage(render, AMAZON);
    const wrongSize = await checkShopImage(
      await sharp(amazon).resize(1200, 1200).withXmp(renderXmp('resized')).png().toBuffer(),
      AMAZON,
    );
    expect(wrongSize.passed).toBe(false);
    expect(wrongSize.size).toMatchObject({ passed: false, width: 1200, expected_width: 2000 });
  });

  it('fails a grey background, a transparent one and an image that does not say it is a render', async () => {
    const amazon = await buildShopImage(render, AMAZON);
    const greyed = await sharp(amazon).linear(0.94, 0).withXmp(renderXmp('greyed')).png().toBuffer();
    const grey = await checkShopImage(greyed, AMAZON);
    expect([grey.passed, grey.background.passed, grey.background.colour]).toEqual([false, false, '#efefef']);

    const see = await sharp(render)
      .resize(2000, 2000, { fit: 'contain', background: '#ffffff00' })
      .png()
      .toBuffer();
    const transparent = await checkShopImage(see, AMAZON);
    expect([transparent.background.passed, transparent.marked.passed]).toEqual([false, false]);

    const stripped = await checkShopImage(await sharp(amazon).png().toBuffer(), AMAZON);
    expect(stripped.marked).toEqual({ passed: false, digital_source_type: null });
    expect(stripped.passed).toBe(false);
  });
});
