import { AVATAR_ACCEPT, AVATAR_MAX_BYTES } from '@pixel-atlas/contracts/plots';
import type { FileRejection } from 'react-dropzone';

const ACCEPTED_EXTENSIONS = Object.values(AVATAR_ACCEPT).flat().join(', ');

/** A file whose bytes are not a JPG, PNG or GIF (whatever its name says): the spec's 'File type must be ...' plus why. */
export function notAnImageMessage(fileName: string): string {
  return `File type must be one of ${ACCEPTED_EXTENSIONS}: "${fileName}" is not a JPG, PNG or GIF image.`;
}

/** A size as people read it: '1 MB', '512 KB', '300 bytes' (binary units, as the limits are set). */
export function formatFileSize(bytes: number): string {
  const units = [
    { size: 1024 * 1024, name: 'MB' },
    { size: 1024, name: 'KB' },
  ];
  for (const unit of units) {
    if (bytes >= unit.size) return `${Number((bytes / unit.size).toFixed(1))} ${unit.name}`;
  }
  return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
}

/**
 * The toast text for a refused file: the first error of the first file, in the spec's words with the size in KB or MB
 * (the spec's 'File is larger than N bytes' would say 1048576), else 'File upload failed'.
 */
export function rejectionMessage(rejections: readonly FileRejection[], limits: { maxSize?: number; minSize?: number } = {}): string {
  const first = rejections[0]?.errors[0];
  if (!first) return 'File upload failed';
  switch (first.code) {
    case 'file-invalid-type':
      return `File type must be one of ${ACCEPTED_EXTENSIONS}`;
    case 'file-too-large':
      return `File is larger than ${formatFileSize(limits.maxSize ?? AVATAR_MAX_BYTES)}`;
    case 'file-too-small':
      return `File is smaller than ${formatFileSize(limits.minSize ?? 0)}`;
    case 'too-many-files':
      return 'Too many files';
    default:
      return first.message || 'File upload failed';
  }
}
