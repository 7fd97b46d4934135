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

const LINE_BREAK = /[\t\n\r\u2028\u2029]/u;
const INVISIBLE = /[\u200B\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/u;
const JOINER = /[\u200C\u200D]/u;
const ZWJ = '\u200D';
const EMOJI = /\p{Extended_Pictographic}/u;
/** Variation selector 16 and the skin tones: they sit between an emoji and the joiner that follows it. */
function isEmojiTrail(char: string): boolean {
  const code = char.codePointAt(0)!;
  return code === 0xfe0f || (code >= 0x1f3fb && code <= 0x1f3ff);
}

/** C0 controls, DEL and C1 controls (tab and line breaks are tested before). */
function isControl(char: string): boolean {
  const code = char.codePointAt(0)!;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
const LOOKALIKE_SCRIPT = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Armenian}]/u;

function joinsLetters(before: string | undefined, after: string | undefined): boolean {
  const ok = (c: string | undefined) => c !== undefined && LETTER_OR_MARK.test(c) && !LOOKALIKE_SCRIPT.test(c);
  return ok(before) && ok(after);
}

function joinsEmoji(chars: string[], at: number): boolean {
  let i = at - 1;
  while (i >= 0 && isEmojiTrail(chars[i]!)) i--;
  const before = chars[i];
  const after = chars[at + 1];
  return before !== undefined && after !== undefined && EMOJI.test(before) && EMOJI.test(after);
}

/** The first reason `text` may not be published as typed, or null. */
export function hiddenCharacterProblem(text: string, options: TextRuleOptions = {}): HiddenCharacterProblem | null {
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (LINE_BREAK.test(c)) {
      if (!options.multiline) return 'line-break';
    } else if (isControl(c)) {
      return 'control';
    } else if (INVISIBLE.test(c)) {
      return 'invisible';
    } else if (JOINER.test(c)) {
      const allowed = joinsLetters(chars[i - 1], chars[i + 1]) || (c === ZWJ && joinsEmoji(chars, i));
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
