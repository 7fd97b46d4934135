import { describe, expect, it } from 'vitest';
import { composeOwnerLinkEmail } from './send-owner-link.ts';
import { composeOwnerLinkRecoveryEmail } from './send-owner-link-recovery.ts';

const token = 'A'.repeat(43);
const request = { plotId: '6f1c1d0e-7a52-4c1e-9d0b-0d7f4f2a9b11', email: 'ada@example.com', displayName: 'Ada', x: 12, y: 34, token };

describe('the receipt', () => {
  it('says what was paid, for which plot, when, with the plot page and the owner link', () => {
    const receipt = { tier: 'prime' as const, amountCents: 7550, currency: 'usd', paidAt: '2026-11-28T17:05:09.000Z' };
    const email = composeOwnerLinkEmail({
      request: { ...request, receipt },
      siteName: 'Pixel Atlas',
      publicOrigin: 'https://atlas.example/',
    });
    expect(email.subject).toBe("Your receipt from Pixel Atlas: 'Ada', Prime Plot");
    const text = email.text(email.link);
    expect(text).toContain('Amount:    $75.50 USD');
    expect(text).toContain('Tier:      Prime Plot (3×3 tiles)');
    expect(text).toContain('Position:  (12, 34)');
    expect(text).toContain('Date:      28 November 2026 at 17:05 UTC');
    expect(text).toContain('Plot page: https://atlas.example/plot/6f1c1d0e-7a52-4c1e-9d0b-0d7f4f2a9b11');
    expect(text).toContain(`https://atlas.example/manage/${token}`);
    expect(email.text('[kept]')).not.toContain(token);
  });

  it('without the payment it is the bare owner link, as before', () => {
    const email = composeOwnerLinkEmail({ request, siteName: 'Pixel Atlas' });
    expect(email.subject).toBe("Your private link to manage your plot 'Ada' on Pixel Atlas");
    expect(email.text(email.link)).toContain(`/manage/${token}`);
  });
});

describe('the owner-link recovery e-mail', () => {
  it('lists each plot with its new link, and keeps none of them in the placeholder text', () => {
    const plots = [
      { plotId: request.plotId, displayName: 'Ada', x: 12, y: 34, token },
      { plotId: '7f1c1d0e-7a52-4c1e-9d0b-0d7f4f2a9b11', displayName: 'Bea', x: 1, y: 2, token: 'B'.repeat(43) },
    ];
    const email = composeOwnerLinkRecoveryEmail({
      request: { email: 'ada@example.com', plots },
      siteName: 'Pixel Atlas',
      publicOrigin: 'https://atlas.example',
    });
    expect(email.subject).toBe('Your owner links on Pixel Atlas');
    const text = email.text(email.link);
    expect(text).toContain(`'Ada' at (12, 34):\nhttps://atlas.example/manage/${token}`);
    expect(text).toContain(`'Bea' at (1, 2):\nhttps://atlas.example/manage/${'B'.repeat(43)}`);
    expect(text).toMatch(/replaces the plot's old owner link/);
    const kept = email.text(() => '[kept]');
    expect(kept).not.toContain(token);
    expect(
      composeOwnerLinkRecoveryEmail({ request: { email: 'ada@example.com', plots: [plots[0]!] }, siteName: 'Pixel Atlas' }).subject,
    ).toBe("Your owner link for 'Ada' on Pixel Atlas");
  });
});
