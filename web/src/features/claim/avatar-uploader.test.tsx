import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { pngFile, renderWithProviders } from '../../test/render-with-providers.tsx';
import { isUsableAvatarFile, sniffAvatarFormat } from './avatar-image.ts';
import { AvatarUploader } from './avatar-uploader.tsx';
import { notAnImageMessage } from './dropzone-errors.ts';

const bytes = (...values: number[]) => Uint8Array.from(values);
const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

describe('avatar file check', () => {
  it.each([
    ['a JPEG', bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10), 'jpeg'],
    ['a PNG', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), 'png'],
    ['a GIF87a', ascii('GIF87a..'), 'gif'],
    ['a GIF89a', ascii('GIF89a..'), 'gif'],
    ['text', ascii('hello, I am text'), null],
    ['an SVG', ascii('<svg xmlns='), null],
    ['a WebP', ascii('RIFF....WEBP'), null],
    ['a PNG cut after 4 bytes', bytes(0x89, 0x50, 0x4e, 0x47), null],
    ['nothing', bytes(), null],
  ])('reads %s from its first bytes', (_name, head, format) => {
    expect(sniffAvatarFormat(head)).toBe(format);
  });

  it('refuses a text file named .png with an image MIME type, without decoding it', async () => {
    const decodes = vi.fn(async () => true);
    expect(await isUsableAvatarFile(new File(['just some text'], 'me.png', { type: 'image/png' }), decodes)).toBe(false);
    expect(decodes).not.toHaveBeenCalled();
  });

  it('refuses a file with an image signature that does not decode (truncated)', async () => {
    expect(await isUsableAvatarFile(pngFile(), async () => false)).toBe(false);
    expect(await isUsableAvatarFile(pngFile(), async () => true)).toBe(true);
  });
});

describe('avatar uploader', () => {
  it('says a text file renamed .png is not a JPG, PNG or GIF, and opens no cropper', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AvatarUploader value={null} onChange={() => {}} shape="round" />);
    await user.upload(screen.getByLabelText('Avatar image file'), new File(['not pixels at all'], 'notes.png', { type: 'image/png' }));
    expect(await screen.findByText('Upload Failed')).toBeTruthy();
    expect(screen.getByText(notAnImageMessage('notes.png'))).toBeTruthy();
    expect(notAnImageMessage('notes.png')).toBe(
      'File type must be one of .jpeg, .jpg, .png, .gif: "notes.png" is not a JPG, PNG or GIF image.',
    );
    expect(screen.queryByText(/Failed to save avatar/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save Avatar' })).toBeNull();
  });

  it('opens the cropper for a real PNG', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AvatarUploader value={null} onChange={() => {}} shape="round" />);
    await user.upload(screen.getByLabelText('Avatar image file'), pngFile());
    expect(await screen.findByRole('button', { name: 'Save Avatar' })).toBeTruthy();
  });

  it('is one button whose name is its visible text, inside a plain drop zone (no nested interactive control)', () => {
    renderWithProviders(<AvatarUploader value={null} onChange={() => {}} shape="round" />);
    const group = screen.getByRole('group', { name: 'Avatar' });
    const button = screen.getByRole('button', { name: 'Choose an image' });
    expect(group.contains(button)).toBe(true);
    expect(button.parentElement?.closest('[role="button"], button, a, label')).toBeNull();
    expect(button.parentElement?.getAttribute('tabindex')).toBeNull();
  });
});
