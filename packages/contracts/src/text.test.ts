import { describe, expect, it } from 'vitest';
import { contactRequestSchema } from './contact.ts';
import { editPlotContentRequestSchema } from './manage.ts';
import { LINK_CREDENTIALS_MESSAGE, claimPlotRequestSchema, flagPlotRequestSchema } from './plots.ts';
import { hiddenCharacterProblem } from './text.ts';

const claim = {
  display_name: 'Ada',
  message: 'Hello',
  link: 'https://example.com',
  x: 10,
  y: 12,
  stripeSessionId: 'cs_test_1',
  tier: 'basic',
  avatar_url: 'data:image/png;base64,AAAA',
};

const INVISIBLE = "can't contain invisible characters (zero-width spaces or text-direction marks)";

/** One of each class the rule refuses, inside a word. */
const HIDDEN: Array<[string, string, string]> = [
  ['NUL', '\u0000', "can't contain control characters"],
  ['another C0 control (ESC)', '\u001B', "can't contain control characters"],
  ['DEL', '\u007F', "can't contain control characters"],
  ['a C1 control', '\u0085', "can't contain control characters"],
  ['a bidi override (RLO)', '\u202E', INVISIBLE],
  ['a bidi embedding (LRE)', '\u202A', INVISIBLE],
  ['a bidi isolate (RLI)', '\u2067', INVISIBLE],
  ['a pop directional isolate', '\u2069', INVISIBLE],
  ['a zero-width space', '\u200B', INVISIBLE],
  ['a zero-width non-joiner between Latin letters', '\u200C', INVISIBLE],
  ['a zero-width joiner between Latin letters', '\u200D', INVISIBLE],
  ['a word joiner', '\u2060', INVISIBLE],
  ['a zero-width no-break space (BOM)', '\uFEFF', INVISIBLE],
];

describe('the text rule, in every schema people type into', () => {
  it.each(HIDDEN)('refuses %s in a display name, a message, an edit, a flag reason and a contact message', (_name, char, text) => {
    const word = `Ad${char}a`;
    const cases = [
      [claimPlotRequestSchema.safeParse({ ...claim, display_name: word }), 'display_name', `Display name ${text}`],
      [claimPlotRequestSchema.safeParse({ ...claim, message: `Hi ${word}` }), 'message', `Message ${text}`],
      [editPlotContentRequestSchema.safeParse({ message: `Hi ${word}` }), 'message', `Message ${text}`],
      [flagPlotRequestSchema.safeParse({ plotId: '00000000-0000-4000-8000-000000000000', reason: word }), 'reason', `Reason ${text}`],
      [contactRequestSchema.safeParse({ name: word, email: 'a@example.com', subject: 'general', message: 'Hi' }), 'name', `Name ${text}`],
      [
        contactRequestSchema.safeParse({ name: 'Ada', email: 'a@example.com', subject: 'general', message: `Hi ${word}` }),
        'message',
        `Message ${text}`,
      ],
    ] as const;
    for (const [result, path, message] of cases) {
      expect(result.success, `${path}: ${JSON.stringify(word)}`).toBe(false);
      expect(result.error!.issues[0]).toMatchObject({ path: [path], message });
    }
  });

  it('lets line breaks and tabs into messages and flag reasons, never into a name', () => {
    const text = 'Line one\nline two\r\n\tindented';
    expect(claimPlotRequestSchema.safeParse({ ...claim, message: text }).success).toBe(true);
    expect(contactRequestSchema.safeParse({ name: 'Ada', email: 'a@example.com', subject: 'general', message: text }).success).toBe(true);
    expect(flagPlotRequestSchema.safeParse({ plotId: '00000000-0000-4000-8000-000000000000', reason: text }).success).toBe(true);
    for (const name of ['Ada\nLovelace', 'Ada\tLovelace', 'Ada\u2028Lovelace']) {
      const result = claimPlotRequestSchema.safeParse({ ...claim, display_name: name });
      expect(result.error!.issues[0]).toMatchObject({ path: ['display_name'], message: 'Display name must be on one line' });
    }
    expect(contactRequestSchema.safeParse({ name: 'A\nB', email: 'a@example.com', subject: 'general', message: 'x' }).success).toBe(false);
  });

  it('trims a leading or trailing BOM like white space', () => {
    expect(claimPlotRequestSchema.parse({ ...claim, display_name: '\uFEFFAda\uFEFF' }).display_name).toBe('Ada');
  });

  it.each([
    ['a family (ZWJ between emoji)', 'Fam 👨\u200D👩\u200D👧'],
    ['a skin tone before the joiner', 'Dev 👩🏽\u200D💻'],
    ['a variation selector before the joiner (rainbow flag)', 'Pride 🏳️\u200D🌈'],
    ['ZWJ before an emoji with its own variation selector', 'Flag 🏳️\u200D⚧️'],
    ['a Persian ZWNJ', 'می\u200Cخواهم'],
    ['an Indic ZWJ', 'क्\u200Dष'],
    ['right-to-left text without overrides', 'שלום עולם'],
    ['accents, CJK and plain emoji', 'Zoë 東京 🚀'],
  ])('allows %s', (_name, text) => {
    expect(hiddenCharacterProblem(text, { multiline: false })).toBeNull();
    expect(claimPlotRequestSchema.safeParse({ ...claim, display_name: text.slice(0, 30), message: text }).success).toBe(true);
  });

  it.each([
    ['ZWJ at the start', '\u200D👩'],
    ['ZWJ at the end', '👩\u200D'],
    ['ZWJ between an emoji and a letter', '👩\u200Da'],
    ['ZWJ between a letter and an emoji', 'a\u200D👩'],
    ['ZWNJ between emoji', '👩\u200C👩'],
    ['ZWNJ between a Latin and a Persian letter', 'a\u200Cم'],
    ['ZWNJ between Cyrillic letters', 'се\u200Cкс'],
  ])('refuses %s', (_name, text) => {
    expect(hiddenCharacterProblem(text)).toBe('invisible');
  });
});

describe('links', () => {
  it.each([
    'https://user:pw@example.com',
    'https://user@example.com/',
    'https://paypal.com@evil.example',
    'https://a.com\\@b.example',
    'http://a.com%40x@b.example',
    'https://:@example.com',
  ])('refuses user info in %j with a clear message', (link) => {
    const result = claimPlotRequestSchema.safeParse({ ...claim, link });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]).toMatchObject({ path: ['link'], message: LINK_CREDENTIALS_MESSAGE });
    expect(editPlotContentRequestSchema.safeParse({ message: 'x', link }).success).toBe(false);
  });

  it.each([
    ['a backslash', 'https://a.com\\b.example', 'Please enter a valid http or https URL'],
    ['a NUL in the path', 'https://example.com/a\u0000b', "Link can't contain control characters"],
    ['a bidi override in the path', 'https://example.com/\u202Egpj.exe', `Link ${INVISIBLE}`],
    ['a zero-width space in the host', 'https://exa\u200Bmple.com', `Link ${INVISIBLE}`],
  ])('refuses %s', (_name, link, message) => {
    const result = claimPlotRequestSchema.safeParse({ ...claim, link });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]).toMatchObject({ path: ['link'], message });
  });

  it.each(['https://example.com/@ada', 'https://example.com/?mail=a@b.example', 'https://example.com/#@top'])(
    'accepts an @ after the host: %j',
    (link) => {
      expect(claimPlotRequestSchema.safeParse({ ...claim, link }).success).toBe(true);
    },
  );
});
