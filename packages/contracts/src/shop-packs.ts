import { z } from 'zod';

/**
 * What a marketplace says about renders standing for an item that exists: `allowed`; `photos_required`
 * (a photograph of the actual item only); `photos_required_for_used` (a used item needs its own
 * photographs, a new one may show a stock picture); `depends_on_category` (illustrations are accepted
 * in some categories only).
 */
export const RenderPolicy = z.enum([
  'allowed',
  'photos_required',
  'photos_required_for_used',
  'depends_on_category',
]);
export type RenderPolicy = z.infer<typeof RenderPolicy>;

export const ShopPresetId = z.enum([
  'amazon-main',
  'etsy',
  'ebay',
  'shopify',
  'google-merchant',
  'instagram-shop',
  'pinterest',
]);
export type ShopPresetId = z.infer<typeof ShopPresetId>;

export interface ShopPreset {
  id: ShopPresetId;
  /** The marketplace's own name, shown as it is in every language. */
  name: string;
  width: number;
  height: number;
  /** Pure white (RGB 255, 255, 255) all around the product is a rule, not a taste. */
  white_background: boolean;
  /** The product's longer extent over the frame's along the same axis; null where no rule says. */
  min_fill: number | null;
  max_fill: number | null;
  renders: RenderPolicy;
  /** Where each rule above comes from (docs/shop-packs.md quotes them). */
  source: string;
}

/**
 * The presets a shop pack is made of, each at the size its marketplace documents (read December
 * 2026; docs/shop-packs.md keeps the rules and their sources and says what to recheck).
 */
export const SHOP_PRESETS: readonly ShopPreset[] = [
  {
    // Seller Central "Product image requirements": main image on pure white RGB 255, product filling
    // at least 85% of the frame, 1,000 px or more on the longest side for zoom (1,600 px or more
    // recommended), square shown best; a professional photograph of the actual product, no
    // illustrations or mock-ups.
    id: 'amazon-main',
    name: 'Amazon',
    width: 2000,
    height: 2000,
    white_background: true,
    min_fill: 0.85,
    max_fill: null,
    renders: 'photos_required',
    source: 'https://sellercentral.amazon.com/help/hub/reference/external/G1881',
  },
  {
    // Etsy Help "Listing photos": 2,000 px on the shortest side recommended, thumbnails cropped to
    // 4:3; the Seller Policy asks for the seller's own photographs of the actual item, not
    // "artistic renderings".
    id: 'etsy',
    name: 'Etsy',
    width: 2700,
    height: 2025,
    white_background: false,
    min_fill: null,
    max_fill: null,
    renders: 'photos_required',
    source: 'https://help.etsy.com/hc/articles/115015663347',
  },
  {
    // eBay picture policy: at least 500 px on the longest side, 1,600 px recommended; stock
    // pictures only for new items, a used item shows its own photographs.
    id: 'ebay',
    name: 'eBay',
    width: 1600,
    height: 1600,
    white_background: false,
    min_fill: null,
    max_fill: null,
    renders: 'photos_required_for_used',
    source: 'https://www.ebay.com/help/policies/listing-policies/picture-policy?id=4370',
  },
  {
    // Shopify Help "Product media types and specifications": square 2048 x 2048 px recommended.
    id: 'shopify',
    name: 'Shopify',
    width: 2048,
    height: 2048,
    white_background: false,
    min_fill: null,
    max_fill: null,
    renders: 'allowed',
    source: 'https://help.shopify.com/manual/products/product-media/product-media-types',
  },
  {
    // Merchant Center "Image link [image_link]": 500 x 500 px at least (from 31 January 2027),
    // 1,500 x 1,500 px or more recommended; best practice: the product takes 75% to 90% of the
    // image on a white, grey or light background; no illustrations outside a few categories.
    id: 'google-merchant',
    name: 'Google Merchant Center',
    width: 1500,
    height: 1500,
    white_background: false,
    min_fill: 0.75,
    max_fill: 0.9,
    renders: 'depends_on_category',
    source: 'https://support.google.com/merchants/answer/6324350',
  },
  {
    // Instagram's portrait feed format 4:5 at 1080 x 1350 px; Meta's commerce catalogue takes
    // images of at least 500 x 500 px that show the product.
    id: 'instagram-shop',
    name: 'Instagram Shop',
    width: 1080,
    height: 1350,
    white_background: false,
    min_fill: null,
    max_fill: null,
    renders: 'allowed',
    source: 'https://www.facebook.com/business/help/686259348512056',
  },
  {
    // Pinterest's product Pin specifications: 2:3, 1000 x 1500 px recommended.
    id: 'pinterest',
    name: 'Pinterest',
    width: 1000,
    height: 1500,
    white_background: false,
    min_fill: null,
    max_fill: null,
    renders: 'allowed',
    source: 'https://help.pinterest.com/article/product-pin-specs',
  },
];

export function shopPreset(id: ShopPresetId): ShopPreset {
  return SHOP_PRESETS.find((preset) => preset.id === id)!;
}

/** A comma-separated list of presets in a query (`?presets=amazon-main,etsy`); all of them when absent. */
export const ShopPresetList = z
  .string()
  .max(400)
  .transform((text, context) => {
    const ids = [...new Set(text.split(',').filter(Boolean))];
    const parsed = z.array(ShopPresetId).min(1).safeParse(ids);
    if (!parsed.success) {
      context.addIssue({ code: 'custom', message: 'validation.shop_presets' });
      return z.NEVER;
    }
    return parsed.data;
  });

export const ShopPackQuery = z.object({ presets: ShopPresetList.optional() });
export type ShopPackQuery = z.infer<typeof ShopPackQuery>;

export const BuildShopPackBody = z.object({ presets: z.array(ShopPresetId).min(1).max(SHOP_PRESETS.length) });
export type BuildShopPackBody = z.infer<typeof BuildShopPackBody>;

/** What the checker measured on one image, each test with its verdict. */
export const ShopImageCheck = z.object({
  passed: z.boolean(),
  size: z.object({
    passed: z.boolean(),
    width: z.number().int(),
    height: z.number().int(),
    expected_width: z.number().int(),
    expected_height: z.number().int(),
  }),
  background: z.object({
    passed: z.boolean(),
    /** The border's mean colour, `#rrggbb`. */
    colour: z.string(),
    /** The share of border pixels that are opaque RGB 255, 255, 255. */
    white_share: z.number(),
    white_required: z.boolean(),
  }),
  fill: z.object({
    passed: z.boolean(),
    ratio: z.number(),
    min: z.number().nullable(),
    max: z.number().nullable(),
  }),
  /** The image says it is a render (XMP Iptc4xmpExt:DigitalSourceType). */
  marked: z.object({ passed: z.boolean(), digital_source_type: z.string().nullable() }),
});
export type ShopImageCheck = z.infer<typeof ShopImageCheck>;

export const ShopPackImage = z.object({
  preset: ShopPresetId,
  /** The image's path inside the pack's zip. */
  name: z.string(),
  /** The project still it was made from. */
  source_id: z.string(),
  source_name: z.string(),
  bytes: z.number().int(),
  check: ShopImageCheck,
});
export type ShopPackImage = z.infer<typeof ShopPackImage>;

export const ShopPack = z.object({
  project_id: z.string(),
  built_at: z.string(),
  presets: z.array(ShopPresetId),
  images: z.array(ShopPackImage),
});
export type ShopPack = z.infer<typeof ShopPack>;

/** The project's last built pack, or null before the first. */
export const ShopPackDocument = z.object({ data: ShopPack.nullable() });
export type ShopPackDocument = z.infer<typeof ShopPackDocument>;
