/**
 * The performance mark the product page sets once its spin's first frame has loaded, from which
 * `npm run bench -- product` reads the time since the navigation.
 */
export const FIRST_FRAME_MARK = 'atelier:product-first-frame';
