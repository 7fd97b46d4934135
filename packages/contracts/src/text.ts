import { z } from 'zod';

/**
 * What people may type into a name, a message or a link that others will read: one rule for the claim, the owner's
 * edit, flags and contact messages, on the server and in the web's forms (which parse the same schemas).
 *
 * Refused with a 400 (never removed silently, so what is published is exactly what the buyer typed and saw):
 * - control characters: C0 (NUL included: PostgreSQL cannot store it), DEL and C1. Tab and line breaks (LF, CR,
 *   U+2028, U+2029) only in a multi-line text (a plot's message, a contact message, a flag's reason);
 * - invisible characters that make one text look like another or reorder what is shown: the bidi embeddings,
 *   overrides and isolates (U+202A–U+202E, U+2066–U+2069), zero-width space (U+200B), word joiner (U+2060) and the
 *   zero-width no-break space / BOM (U+FEFF) (a leading or trailing one is trimmed with the white space).
 * The joiners are letters' business in some scripts, so they are allowed where they do that work:
 * - U+200D (zero-width joiner) between two emoji, as in 👩‍💻 or 🏳️‍🌈 (after a variation selector or skin tone);
 * - U+200C and U+200D between two letters (or marks) of a script that is not Latin, Greek, Cyrillic or Armenian,
 *   as in Persian می‌خواهم or Indic conjuncts. In the look-alike scripts a joiner changes nothing a reader sees and
 *   only hides one word inside another ('A\u200Cda' would pass for 'Ada').
 */

export interface TextRuleOptions {
  /** Tab and line breaks allowed (a message); a name or a link is one line. */
  multiline?: boolean;
}

export type HiddenCharacterProblem = 'control' | 'line-break' | 'invisible';

const TAB_AND_LINE_BREAKS = new Set([0x09, 0x0a, 0x0d, 0x2028, 0x2029]);
const INVISIBLE = new Set([0x200b, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2060, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff]);
const ZWNJ = 0x200c;
const ZWJ = 0x200d;
const EMOJI = /\p{Extended_Pictographic}/u;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
const LOOKALIKE_SCRIPT = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Armenian}]/u;

/** Variation selector 16 and the skin tones: they sit between an emoji and the joiner that follows it. */
function isEmojiTrail(char: string): boolean {
  const code = char.codePointAt(0)!;
  return code === 0xfe0f || (code >= 0x1f3fb && code <= 0x1f3ff);
}

/** The whole character (one code point, a surrogate pair included) that ends just before UTF-16 index `end`. */
function charBefore(text: string, end: number): string | undefined {
  if (end <= 0) return undefined;
  const last = text.charCodeAt(end - 1);
  const paired = last >= 0xdc00 && last <= 0xdfff && end >= 2 && text.charCodeAt(end - 2) >= 0xd800 && text.charCodeAt(end - 2) <= 0xdbff;
  return text.slice(paired ? end - 2 : end - 1, end);
}

/** The whole character that starts at UTF-16 index `start`. */
function charFrom(text: string, start: number): string | undefined {
  const code = text.codePointAt(start);
  return code === undefined ? undefined : String.fromCodePoint(code);
}

function joinsLetters(before: string | undefined, after: string | undefined): boolean {
  const ok = (c: string | undefined) => c !== undefined && LETTER_OR_MARK.test(c) && !LOOKALIKE_SCRIPT.test(c);
  return ok(before) && ok(after);
}

function joinsEmoji(text: string, at: number): boolean {
  let end = at;
  let before = charBefore(text, end);
  while (before !== undefined && isEmojiTrail(before)) {
    end -= before.length;
    before = charBefore(text, end);
  }
  const after = charFrom(text, at + 1);
  return before !== undefined && after !== undefined && EMOJI.test(before) && EMOJI.test(after);
}

/**
 * The first reason `text` may not be published as typed, or null. One pass over the UTF-16 units with no allocation
 * (every character the rule looks at is in the BMP), so a body-sized string costs a few milliseconds at most.
 */
export function hiddenCharacterProblem(text: string, options: TextRuleOptions = {}): HiddenCharacterProblem | null {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Nothing the rule refuses lies in these ranges (printable ASCII; Latin-1 to the General Punctuation block; past it).
    if ((code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code < 0x200b) || (code > 0x2069 && code !== 0xfeff)) continue;
    if (TAB_AND_LINE_BREAKS.has(code)) {
      if (!options.multiline) return 'line-break';
    } else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
      return 'control';
    } else if (INVISIBLE.has(code)) {
      return 'invisible';
    } else if (code === ZWNJ || code === ZWJ) {
      const allowed = joinsLetters(charBefore(text, i), charFrom(text, i + 1)) || (code === ZWJ && joinsEmoji(text, i));
      if (!allowed) return 'invisible';
    }
  }
  return null;
}

/** The 400 message for a problem, in the forms' words ('Display name can't …'). */
export function hiddenCharacterMessage(label: string, problem: HiddenCharacterProblem): string {
  if (problem === 'line-break') return `${label} must be on one line`;
  if (problem === 'control') return `${label} can't contain control characters`;
  return `${label} can't contain invisible characters (zero-width spaces or text-direction marks)`;
}

/**
 * The rule as a zod check: `z.string().trim().check(visibleText('Message', { multiline: true })).max(…)`. A check,
 * not a transform, so the schema stays a plain string in the OpenAPI document and in the web's types.
 */
export function visibleText(label: string, options: TextRuleOptions = {}) {
  return z.superRefine<string>((text, ctx) => {
    const problem = hiddenCharacterProblem(text, options);
    if (problem) ctx.addIssue({ code: 'custom', message: hiddenCharacterMessage(label, problem), input: text });
  });
}
