import { z } from 'zod';

/**
 * One colourway of a product page (or the project's own finishes, `variant` null): the addresses of
 * its stills, of its spin's frames in turn order, and of the model for 3D viewers (GLB) and for iOS
 * AR Quick Look (USDZ). Every address is one of the share's own, good only while the share is.
 */
export const ProductView = z.object({
  variant: z.object({ id: z.string(), name: z.string() }).nullable(),
  stills: z.array(z.string()),
  spin: z.array(z.string()),
  glb: z.string().nullable(),
  usdz: z.string().nullable(),
});
export type ProductView = z.infer<typeof ProductView>;

/** `GET /api/sharing/product/{token}`: a project's share as a product page. */
export const ProductPageDocument = z.object({
  data: z.object({
    id: z.string(),
    type: z.literal('product'),
    attributes: z.object({
      title: z.string(),
      description: z.string().nullable(),
      /** The project's own finishes first, then its colourways in the studio's order. */
      views: z.array(ProductView).min(1),
    }),
  }),
});
export type ProductPageDocument = z.infer<typeof ProductPageDocument>;

/** `GET /api/oembed?url=…`: a product page's link as an oEmbed `rich` answer (JSON only). */
export const OEmbedQuery = z.object({
  url: z.string().max(2000),
  format: z.literal('json').optional(),
  maxwidth: z.coerce.number().int().min(200).max(4000).optional(),
  maxheight: z.coerce.number().int().min(200).max(4000).optional(),
});
export type OEmbedQuery = z.infer<typeof OEmbedQuery>;

export const OEmbedDocument = z.object({
  version: z.literal('1.0'),
  type: z.literal('rich'),
  title: z.string(),
  provider_name: z.string(),
  provider_url: z.string(),
  html: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  thumbnail_url: z.string().optional(),
});
export type OEmbedDocument = z.infer<typeof OEmbedDocument>;

/** The product page's address of a share; `embed` is the page as an iframe shows it, without its frame. */
export function productPagePath(token: string, embed = false): string {
  return `/share/${token}/product${embed ? '?embed=1' : ''}`;
}
