import { AVATAR_ACCEPT, AVATAR_MAX_BYTES } from '@pixel-atlas/contracts/plots';
import type { FileRejection } from 'react-dropzone';

const ACCEPTED_EXTENSIONS = Object.values(AVATAR_ACCEPT).flat().join(', ');

/** A file whose bytes are not a JPG, PNG or GIF (whatever its name says): the spec's 'File type must be ...' plus why. */
export function notAnImageMessage(fileName: string): string {
  return `File type must be one of ${ACCEPTED_EXTENSIONS}: "${fileName}" is not a JPG, PNG or GIF image.`;
}

/**
 * The toast text for a refused file: the first error of the first file, in the spec's words
 * (react-dropzone 19 words sizes as KB/MB, the spec in bytes), else 'File upload failed'.
 */
export function rejectionMessage(rejections: readonly FileRejection[], limits: { maxSize?: number; minSize?: number } = {}): string {
  const first = rejections[0]?.errors[0];
  if (!first) return 'File upload failed';
  switch (first.code) {
    case 'file-invalid-type':
      return `File type must be one of ${ACCEPTED_EXTENSIONS}`;
    case 'file-too-large':
      return `File is larger than ${limits.maxSize ?? AVATAR_MAX_BYTES} bytes`;
    case 'file-too-small':
      return `File is smaller than ${limits.minSize ?? 0} bytes`;
    case 'too-many-files':
      return 'Too many files';
    default:
      return first.message || 'File upload failed';
  }
}
