/** Strings of a share's product page and its embed code (issue 27). */
export const enProductPage: Record<string, string> = {
  'pages.product': 'Product',
  'product.none':
    'This link has no product page yet: render the project with a turntable to make its spin and 3D model.',
  'product.spin': '360° view: drag, swipe or use the arrow keys to turn',
  'product.spin_hint': 'Drag to turn',
  'product.frame': 'Angle {{frame}} of {{total}}',
  'product.still': 'Still {{n}}',
  'product.stills': 'Stills',
  'product.colourways': 'Colourways',
  'product.own_finish': 'As designed',
  'product.view_3d': 'View in 3D',
  'product.close_3d': 'Back to the spin',
  'product.viewer_label': '3D model: drag to turn, pinch or scroll to zoom',
  'product.viewer_failed': 'The 3D model could not be shown in this browser.',
  'product.ar': 'View in your room',
  'product.ar_ios': 'View in your room (iPhone, iPad)',
  'product.ar_android': 'View in your room (Android)',
  'product.download_model': 'Download the 3D model (GLB)',
  'product.shop_pack': 'Download shop pack',
  'product.page_link': 'Product page',
  'product.embed': 'Embed on your shop',
  'product.embed_lead':
    'Paste either code into your shop’s page: it shows the spin, the 3D view and the colourways, and keeps this link’s rules — it stops when the link expires or you revoke it.',
  'product.embed_lead_protected':
    'Paste either code into your shop’s page. This link has a password: the embed asks visitors to open the product page to give it, and it stops when the link expires or you revoke it.',
  'product.embed_iframe': 'Frame (iframe)',
  'product.embed_script': 'Script (embed.js)',
  'product.embed_open': 'Open',
  'product.embed_locked_title': 'This product has a password',
  'product.embed_locked_body': 'Open the product page to give it and see the product.',
  'product.open_page': 'Open the product page',
};
