import { describe, expect, it } from 'vitest';
import { claimPlotRequestSchema } from './plots.ts';
import { footprintsOverlap } from './grid.ts';
import { normalizeTier, tierPlotLabel } from './tiers.ts';
import { zoneName } from './zones.ts';

const valid = {
  display_name: 'Ada',
  message: 'Hello',
  link: 'https://example.com',
  zone: 'nexus',
  x: 10,
  y: 12,
  stripeSessionId: 'cs_test_1',
  tier: 'basic',
  avatar_url: 'data:image/png;base64,AAAA',
};

describe('claim payload', () => {
  it('accepts the spec payload and defaults the zone', () => {
    const { zone, ...rest } = valid;
    const parsed = claimPlotRequestSchema.parse(rest);
    expect(parsed.zone).toBe('nexus');
  });
  it.each([
    ['display_name', 'A', 'at least 2'],
    ['display_name', 'x'.repeat(31), 'at most 30'],
    ['message', 'x'.repeat(141), 'at most 140'],
    ['link', 'javascript:alert(1)', 'http or https'],
    ['x', 90, ''],
    ['tier', 'gold', ''],
    ['notification_email', 'nope', 'Please enter a valid email address'],
  ])('rejects %s = %j', (field, value, text) => {
    const result = claimPlotRequestSchema.safeParse({ ...valid, [field]: value });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain(text);
  });
  it.each([
    'https://exa mple.com',
    'https://exa\tmple.com',
    'https://example.com/a b',
    'https://.',
    'https://a..b.com',
    'https://-a.com',
    'https://example',
    'https:example.com',
    'https://example.com:99999',
    'http://',
    'example.com',
  ])('rejects the malformed link %j', (link) => {
    const result = claimPlotRequestSchema.safeParse({ ...valid, link });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]).toMatchObject({ path: ['link'], message: 'Please enter a valid http or https URL' });
  });
  it.each([
    'https://example.com',
    'http://ada.example/shop?x=1#top',
    'https://sub.domain.co.uk/path',
    'https://xn--r8jz45g.jp',
    'https://例え.jp/',
    ' https://example.com ',
  ])('accepts the link %j', (link) => {
    expect(claimPlotRequestSchema.safeParse({ ...valid, link }).success).toBe(true);
  });
  it('treats an empty link as none', () => {
    expect(claimPlotRequestSchema.parse({ ...valid, link: '' }).link).toBeUndefined();
  });
});

describe('grid rules', () => {
  it('lets touching footprints in and refuses overlapping ones', () => {
    expect(footprintsOverlap({ x: 0, y: 0, size: 2 }, { x: 2, y: 0, size: 2 })).toBe(false);
    expect(footprintsOverlap({ x: 0, y: 0, size: 2 }, { x: 1, y: 1, size: 1 })).toBe(true);
  });
  it('labels tiers and zones as the spec does', () => {
    expect(normalizeTier('gold')).toBe('basic');
    expect(tierPlotLabel('premium')).toBe('Premium Plot');
    expect(zoneName('meme')).toBe('Meme Marshlands');
    expect(zoneName('harbor')).toBe('Harbor');
  });
});
