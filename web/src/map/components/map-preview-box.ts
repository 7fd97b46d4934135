/**
 * The preview's box: a fixed height, so the space is reserved before the chunk, the layout or the plots arrive
 * (the plot page's skeleton and the gateway's server-rendered plot page use the same classes: no layout shift).
 */
export const MAP_PREVIEW_BOX_CLASS = 'relative h-44 w-full overflow-hidden border-2 border-black bg-night shadow-pixel-sm sm:h-52';
