import type { FileRejection } from 'react-dropzone';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeGateway } from '../../test/fake-gateway.ts';
import { jsonResponse } from '../../test/render-app.tsx';
import { findFreePosition } from './auto-assign.ts';
import { rejectionMessage } from './dropzone-errors.ts';
import { clearPendingClaim, readPendingClaim, savePendingClaim, type PendingClaim } from './pending-claim.ts';
import { checkPosition } from './position-check.ts';

const reject = (code: string, message = 'original'): FileRejection[] => [
  { file: Object.assign(new File([''], 'f'), { path: 'f', relativePath: 'f' }), errors: [{ code, message }] },
];

describe('rejectionMessage', () => {
  it("words the first error as the spec does, else 'File upload failed'", () => {
    expect(rejectionMessage(reject('file-invalid-type'))).toBe('File type must be one of .jpeg, .jpg, .png, .gif');
    // Sizes in KB or MB, never a raw byte count.
    expect(rejectionMessage(reject('file-too-large'))).toBe('File is larger than 1 MB');
    expect(rejectionMessage(reject('file-too-large'), { maxSize: 512 * 1024 })).toBe('File is larger than 512 KB');
    expect(rejectionMessage(reject('file-too-large'), { maxSize: 1.5 * 1024 * 1024 })).toBe('File is larger than 1.5 MB');
    expect(rejectionMessage(reject('file-too-small'), { minSize: 10 })).toBe('File is smaller than 10 bytes');
    expect(rejectionMessage(reject('too-many-files'))).toBe('Too many files');
    expect(rejectionMessage(reject('custom', 'Odd file'))).toBe('Odd file');
    expect(rejectionMessage(reject('custom', ''))).toBe('File upload failed');
    expect(rejectionMessage([])).toBe('File upload failed');
  });
});

describe('pending claim', () => {
  const claim: PendingClaim = {
    x: 1,
    y: 2,
    display_name: 'Ada',
    message: '',
    link: '',
    tier: 'basic',
    avatar_url: 'data:image/png;base64,A',
  };

  it('round-trips through session storage and is forgotten on clear', () => {
    savePendingClaim(claim);
    expect(readPendingClaim()).toEqual(claim);
    clearPendingClaim();
    expect(readPendingClaim()).toBeNull();
  });

  it('throws away anything unreadable', () => {
    sessionStorage.setItem('pendingClaim', '{"x":"one"}');
    expect(readPendingClaim()).toBeNull();
    expect(sessionStorage.getItem('pendingClaim')).toBeNull();
    sessionStorage.setItem('pendingClaim', 'not json');
    expect(readPendingClaim()).toBeNull();
  });
});

describe('checkPosition', () => {
  it('lets a hold through only when asked to', async () => {
    fakeGateway({ 'GET /api/position-available?x=3&y=4&tier=prime': [() => jsonResponse({ available: false, reason: 'held' })] });
    expect((await checkPosition(3, 4, 'prime'))?.title).toBe('Tile Reserved');
    expect(await checkPosition(3, 4, 'prime', { allowHeld: true })).toBeNull();
  });
});

describe('findFreePosition', () => {
  afterEach(() => vi.restoreAllMocks());

  it('asks about lattice points (15..70 step 5) for the tier and returns a free one', async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        const url = new URL(request.url);
        asked.push(url.search);
        const free = url.searchParams.get('x') === '35' && url.searchParams.get('y') === '50';
        return jsonResponse(free ? { available: true } : { available: false, reason: 'taken' });
      }),
    );
    expect(await findFreePosition('featured')).toEqual({ x: 35, y: 50 });
    for (const search of asked) {
      const params = new URLSearchParams(search);
      expect(params.get('tier')).toBe('featured');
      for (const axis of ['x', 'y']) {
        const value = Number(params.get(axis));
        expect(value >= 15 && value <= 70 && value % 5 === 0).toBe(true);
      }
    }
  });

  it('returns null when no lattice point is free', async () => {
    let count = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        count++;
        return jsonResponse({ available: false, reason: 'water' });
      }),
    );
    expect(await findFreePosition('basic')).toBeNull();
    expect(count).toBe(144);
  });
});
