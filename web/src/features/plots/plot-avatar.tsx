import { useState } from 'react';

/** A pixel-art silhouette shown when an avatar image cannot be loaded (spec section 8). */
export const DEFAULT_AVATAR_SRC =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16" shape-rendering="crispEdges">' +
      '<rect width="16" height="16" fill="#2a2342"/><rect x="5" y="3" width="6" height="6" fill="#8f80c9"/>' +
      '<rect x="3" y="10" width="10" height="6" fill="#8f80c9"/></svg>',
  );

interface PlotAvatarProps {
  src: string | null | undefined;
  alt: string;
  className?: string;
}

/** The plot's avatar; a broken or missing image becomes the default silhouette. */
export function PlotAvatar({ src, alt, className = '' }: PlotAvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const usable = src && src !== failedSrc ? src : DEFAULT_AVATAR_SRC;
  return (
    <img
      src={usable}
      alt={alt}
      loading="lazy"
      className={`border-2 border-black bg-panel-raised object-cover [image-rendering:pixelated] ${className}`}
      onError={() => {
        if (src) setFailedSrc(src);
      }}
    />
  );
}
