/** Strings of the shop packs (issue 27): server answers, then the project page's section. */
export const enShopPacks: Record<string, string> = {
  // Server answers
  'validation.shop_presets': 'Choose one or more of the shop presets.',
  'validation.shop_pack_no_stills':
    'This project has no PNG stills yet. Render it first; a transparent background gives white-background packs.',
  // Web: the project page's section
  'shop_pack.title': 'Shop pack',
  'shop_pack.lead':
    'Listing images for marketplaces and shop builders, made from the newest stills at the sizes each documents. Every image is checked for its size, background and how much of the frame the product fills.',
  'shop_pack.presets': 'Presets',
  'shop_pack.size': '{{width}} \u00d7 {{height}} px',
  'shop_pack.rule.white': 'Pure white background',
  'shop_pack.rule.fill_min': 'Product fills at least {{min}}',
  'shop_pack.rule.fill_range': 'Product fills {{min}} to {{max}}',
  'shop_pack.renders.allowed': 'Renders accepted',
  'shop_pack.renders.photos_required': 'Asks for photos of an item that exists',
  'shop_pack.renders.photos_required_for_used': 'Used items need their own photos',
  'shop_pack.renders.depends_on_category': 'Illustrations only in some categories',
  'shop_pack.source': 'Rules',
  'shop_pack.build': 'Build and check',
  'shop_pack.building': 'Building {{preset}} ({{done}} of {{total}})',
  'shop_pack.download': 'Download shop pack',
  'shop_pack.choose_one': 'Choose at least one preset.',
  'shop_pack.none_yet': 'No pack built yet. Choose presets and build it to see each image\u2019s checks.',
  'shop_pack.built_at': 'Checked {{date}}',
  'shop_pack.summary': '{{passed}} of {{total}} images pass',
  'shop_pack.passed': 'Passes',
  'shop_pack.failed': 'Fails',
  'shop_pack.check.size': 'Size {{width}} \u00d7 {{height}}',
  'shop_pack.check.background': 'Border {{colour}}',
  'shop_pack.check.background_white': 'Border pure white ({{share}})',
  'shop_pack.check.fill': 'Fill {{ratio}}',
  'shop_pack.check.marked': 'Marked as a render',
  'shop_pack.check.unmarked': 'Not marked as a render',
  'shop_pack.renders_note':
    'Every image says it is a render (IPTC digital source type in its XMP). Amazon\u2019s main image and Etsy ask for photographs of an item that exists, and eBay for photos of used items; use renders there only for what is made to order or not made yet.',
  'shop_pack.failed_build': 'The pack could not be built.',
};
