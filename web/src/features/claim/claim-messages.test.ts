import { describe, expect, it } from 'vitest';
import { CLAIM_FAILED_FALLBACK, claimFailureMessage } from './claim-messages.ts';

const failed = (status: number, body: unknown) => new Error(`${status}: ${typeof body === 'string' ? body : JSON.stringify(body)}`);

describe('claim failure message', () => {
  it("shows the refused field's own sentence for a 400 (an avatar that is not an image), without its key", () => {
    const error = failed(400, {
      error: {
        code: 'VALIDATION_FAILED',
        message: 'avatar_url: Avatar must be a JPG, PNG or GIF image.',
        details: { fields: { avatar_url: 'Avatar must be a JPG, PNG or GIF image.' } },
      },
    });
    expect(claimFailureMessage(error, CLAIM_FAILED_FALLBACK)).toBe('Avatar must be a JPG, PNG or GIF image.');
  });

  it("keeps the server's message when no field is named, and the fallback for anything unreadable", () => {
    expect(
      claimFailureMessage(failed(402, { error: { code: 'PAYMENT_REQUIRED', message: 'Payment not verified' } }), CLAIM_FAILED_FALLBACK),
    ).toBe('Payment not verified');
    expect(claimFailureMessage(failed(400, '<html>bad</html>'), CLAIM_FAILED_FALLBACK)).toBe(CLAIM_FAILED_FALLBACK);
    expect(claimFailureMessage(new TypeError('Failed to fetch'), CLAIM_FAILED_FALLBACK)).toBe(CLAIM_FAILED_FALLBACK);
  });
});
