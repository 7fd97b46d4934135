import { describe, expect, it } from 'vitest';
import { composeOwnerEmail } from './compose-owner-email.ts';

const plot = { plotId: '6f1c1d0e-7a52-4c1e-9d0b-0d7f4f2a9b11', displayName: 'Ada', x: 12, y: 34 };

describe('composeOwnerEmail', () => {
  it('tells the owner an approved plot is live, with its link when the site address is known', () => {
    const email = composeOwnerEmail({ decision: 'approved', plot, siteName: 'Pixel Atlas', publicOrigin: 'https://atlas.example/' });
    expect(email.subject).toBe("Your plot 'Ada' is now live on Pixel Atlas");
    expect(email.text).toContain(
      'approved it. It is now live on Pixel Atlas: https://atlas.example/plot/6f1c1d0e-7a52-4c1e-9d0b-0d7f4f2a9b11',
    );
    expect(email.text).toContain('(12, 34)');
  });

  it('explains a removal under the content policy, without refund, and points to the contact page', () => {
    const email = composeOwnerEmail({ decision: 'rejected', plot, siteName: 'Map Town' });
    expect(email.subject).toBe("Your plot 'Ada' has been removed from Map Town");
    expect(email.text).toMatch(/does not meet our content policy/);
    expect(email.text).toMatch(/not refunded/);
    expect(email.text).toMatch(/contact page/);
    expect(email.text).not.toContain('undefined');
    expect(composeOwnerEmail({ decision: 'rejected', plot, siteName: 'Map Town', publicOrigin: 'https://m.example' }).text).toContain(
      'contact page (https://m.example/contact)',
    );
  });
});
