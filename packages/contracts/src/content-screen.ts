/**
 * The content screen, shared by the browser (before payment), the moderation service (the server-side screen)
 * and plots (its floor screen when moderation does not answer), so all three give the same answer.
 *
 * ARCHITECTURE.md section 7: whole words after normalisation. The spec's substring rule held 'Essex', 'Scunthorpe',
 * 'skillful' and 'Latest' while 's\u200Bex' or 'sеx' (Cyrillic е) walked through. Here a text is normalised (NFKC,
 * invisible and bidi characters removed, accents stripped, look-alike letters folded to Latin, lowercased), cut into
 * words, and a listed word is found when a word IS it (or an inflection of it: 'drugs', 'killer', 'hating'), when it is
 * spelled out letter by letter ('s.e.x', 's e x'), or hidden in camelCase / digits ('FreeSex', 'sex4u'). Common
 * leetspeak digits and symbols count as the letters they imitate, but only inside a word with a real letter in it, so
 * numbers ('7357') never match. 'fuck' and 'porn' alone also match inside words: no innocent word contains them.
 *
 * The work is linear in the text (no regular expression is built from user text or from the word list; the fixed ones
 * are single character classes), so a long text cannot stall the caller.
 */

/** The spec's word list (section 5): the floor of the server's screen and the browser's whole list. */
export const FLAGGED_WORDS = ['test', 'fuck', 'shit', 'damn', 'hate', 'kill', 'sex', 'porn', 'drug'] as const;

/** Listed words also found inside longer words ('motherfucker', 'pornography'): no innocent word contains them. */
const EMBEDDED_WORDS = new Set(['fuck', 'porn']);

/**
 * Characters that draw nothing and so can hide inside a word: every format character (zero-width space / joiners /
 * non-joiner, LRM/RLM, the bidi embeddings, overrides and isolates, word joiner and invisible operators, BOM, soft
 * hyphen, tag characters) plus the letters and symbols that render blank (Hangul fillers, braille blank).
 * Combining marks (variation selectors, grapheme joiner, accents, strike-through overlays) go after NFD.
 */
const INVISIBLE = /[\p{Cf}\u115F\u1160\u3164\uFFA0\u2800]/gu;
const MARKS = /\p{M}/gu;
const LETTER = /\p{L}/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const LOWER = /\p{Ll}/u;
const UPPER = /\p{Lu}/u;
const DIGIT = /\p{N}/u;

/**
 * Look-alikes that NFKC leaves alone, folded to the Latin letter they imitate (case kept). A short hand-written map
 * rather than Unicode's confusables.txt: that table also maps Latin to Latin ('rn' → 'm', 'l' → 'I'), which would
 * turn innocent words into listed ones; here only letters of other scripts (and a few Latin letters without a
 * decomposition) that pass for a Latin letter in common fonts are folded. Fullwidth, mathematical, circled and
 * superscript letters are already Latin after NFKC; accented letters are after NFD and mark removal.
 */
const LOOKALIKES: ReadonlyArray<readonly [string, string]> = [
  // Cyrillic
  ['АВЕКМНОРСТУХІЈЅԚԜӀ', 'ABEKMHOPCTYXIJSQWI'],
  ['авеикмнопрстухьгіјѕԁһԛԝӏ', 'abeukmhonpctyxbrijsdhqwl'],
  // Greek
  ['ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ', 'ABEZHIKMNOPTYX'],
  ['αβγεηικνορτυχωϲϳ', 'abyenikvoptuxwcj'],
  // Armenian
  ['օսհոցզ', 'ouhngq'],
  // Latin letters with no decomposition, and small capitals
  ['ıȷłŁøØđĐħĦƀɑɡɩ', 'ijlLoOdDhHbagi'],
  ['ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢ', 'abcdefghijklmnoprstuvwyz'],
];
const FOLD = new Map<string, string>();
for (const [from, to] of LOOKALIKES) {
  const source = [...from];
  const target = [...to];
  if (source.length !== target.length) throw new Error(`content screen: look-alike row ${from} is misaligned`);
  source.forEach((char, i) => FOLD.set(char, target[i]!));
}

/** Leetspeak: what a digit or symbol inside a word may stand for ('k1ll', 'h4te', '$hit', 'ki||'). */
const LEET: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'il',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '9': 'g',
  '@': 'a',
  $: 's',
  '!': 'i',
  '|': 'l',
};
const LEET_SYMBOLS = new Set(['@', '$', '!', '|']);

/** Endings that keep a listed word the same word: 'drugs', 'killer', 'damned', 'sexy', 'hateful'. */
const SUFFIXES = ['s', 'es', 'ed', 'er', 'ers', 'ing', 'ings', 'y', 'ies', 'ier', 'iest', 'ful'];
/** After a doubled final consonant: 'shitty', 'druggie', 'drugged'. */
const DOUBLED_SUFFIXES = ['ed', 'er', 'ers', 'ing', 'ings', 'y', 'ie', 'ies', 'ier', 'iest'];
const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

/**
 * A text as the screen reads it: NFKC, invisible characters removed, accents and other marks stripped, look-alike
 * letters folded to Latin. Case is kept (camelCase splitting needs it); matching lowercases.
 */
export function normaliseForScreen(text: string): string {
  const stripped = text.normalize('NFKC').replace(INVISIBLE, '').normalize('NFD').replace(MARKS, '');
  let folded = '';
  for (const char of stripped) folded += FOLD.get(char) ?? char;
  return folded.normalize('NFKC');
}

/** Words of a normalised text; `symbols` keeps the leet symbols inside words ('$hit'), else they separate. */
function tokenise(text: string, symbols: boolean): string[] {
  const tokens: string[] = [];
  let current = '';
  for (const char of text) {
    if (WORD_CHAR.test(char) || (symbols && LEET_SYMBOLS.has(char))) {
      current += char;
    } else if (current) {
      tokens.push(current);
      current = '';
    }
  }
  if (current) tokens.push(current);
  // A trailing '!' is punctuation far more often than an i ('Kill it!').
  return symbols ? tokens.map((t) => t.replace(/!+$/u, '')).filter(Boolean) : tokens;
}

/** 'FreeSex' → Free, Sex; 'sex4u' → sex, 4, u: words run together by case or digits. */
function splitJoined(token: string): string[] {
  const parts: string[] = [];
  let current = '';
  let previous = '';
  for (const char of token) {
    const boundary = current !== '' && ((LOWER.test(previous) && UPPER.test(char)) || DIGIT.test(previous) !== DIGIT.test(char));
    if (boundary) {
      parts.push(current);
      current = '';
    }
    current += char;
    previous = char;
  }
  if (current) parts.push(current);
  return parts;
}

interface Entry {
  /** The word as listed (what the screen reports). */
  word: string;
  /** Its normalised words: one for a word, several for a phrase ('crypto-giveaway'). */
  parts: string[];
  /** The accepted spellings of each part: the last one's inflections, the others as listed. */
  partForms: Array<Set<string>>;
  embedded: boolean;
}

interface TrieNode {
  next: Map<string, TrieNode>;
  /** The single-word entries one of whose forms ends here. */
  ends: Entry[];
}

interface CompiledList {
  entries: Entry[];
  /** Every form of every single-word entry, letter by letter. */
  forms: TrieNode;
  phrases: Entry[];
}

function inflections(word: string): string[] {
  const forms = [word, ...SUFFIXES.map((s) => word + s)];
  const last = word.at(-1) ?? '';
  if (last === 'e') {
    forms.push(`${word}d`, `${word}r`, `${word}rs`);
    const stem = word.slice(0, -1);
    forms.push(`${stem}ing`, `${stem}ings`);
  } else if (LETTER.test(last) && !VOWELS.has(last) && word.length >= 3) {
    forms.push(...DOUBLED_SUFFIXES.map((s) => word + last + s));
  }
  return forms;
}

const compiled = new WeakMap<readonly string[], CompiledList>();

function compile(words: readonly string[]): CompiledList {
  const cached = compiled.get(words);
  if (cached) return cached;
  const list: CompiledList = { entries: [], forms: { next: new Map(), ends: [] }, phrases: [] };
  for (const word of words) {
    const parts = tokenise(normaliseForScreen(word), false).map((p) => p.toLowerCase());
    if (parts.length === 0) continue;
    const partForms = parts.map((part, i) => new Set(i === parts.length - 1 ? inflections(part) : [part]));
    const entry: Entry = { word, parts, partForms, embedded: parts.length === 1 && EMBEDDED_WORDS.has(parts[0]!) };
    list.entries.push(entry);
    if (parts.length > 1) {
      list.phrases.push(entry);
      continue;
    }
    for (const form of partForms[0]!) {
      let node = list.forms;
      for (const char of form) {
        let child = node.next.get(char);
        if (!child) node.next.set(char, (child = { next: new Map(), ends: [] }));
        node = child;
      }
      if (!node.ends.includes(entry)) node.ends.push(entry);
    }
  }
  compiled.set(words, list);
  return list;
}

/**
 * Every listed form spelled by `text` from `start`, a digit or symbol standing for the letter it imitates:
 * visit(end, entry) for each. Bounded by the longest form, whatever the text's length.
 */
function walkForms(root: TrieNode, text: string, start: number, visit: (end: number, entry: Entry) => void): void {
  const stack: Array<[TrieNode, number]> = [[root, start]];
  while (stack.length > 0) {
    const [node, at] = stack.pop()!;
    for (const entry of node.ends) visit(at, entry);
    if (at >= text.length) continue;
    const char = text[at]!;
    const same = node.next.get(char);
    if (same) stack.push([same, at + 1]);
    for (const letter of LEET[char] ?? '') {
      const child = node.next.get(letter);
      if (child) stack.push([child, at + 1]);
    }
  }
}

/** One part of a phrase: the word itself, or spelled with digits or symbols for some letters. */
function isPart(token: string, forms: Set<string>): boolean {
  if (forms.has(token)) return true;
  if (!LETTER.test(token)) return false;
  for (const form of forms) {
    if (form.length !== token.length) continue;
    let same = true;
    for (let i = 0; i < form.length && same; i += 1) same = token[i] === form[i] || (LEET[token[i]!]?.includes(form[i]!) ?? false);
    if (same) return true;
  }
  return false;
}

/** The entries found in one sequence of (lowercase) words. */
function scanWords(tokens: string[], list: CompiledList, found: Set<Entry>): void {
  for (const token of tokens) {
    // A number is never a word, whatever its digits look like ('7357' is not 'test').
    if (!LETTER.test(token)) continue;
    for (let start = 0; start < token.length; start += 1) {
      walkForms(list.forms, token, start, (end, entry) => {
        if ((start === 0 && end === token.length) || (entry.embedded && LETTER.test(token.slice(start, end)))) found.add(entry);
      });
    }
  }
  for (const entry of list.phrases) {
    for (let start = 0; start + entry.parts.length <= tokens.length && !found.has(entry); start += 1) {
      if (entry.partForms.every((forms, p) => isPart(tokens[start + p]!, forms))) found.add(entry);
    }
  }
  // Spelled out letter by letter: runs of one-character words ('s.e.x', 's e x', 'k-1-l-l').
  let run = '';
  const flush = () => {
    for (let start = 0; run.length >= 2 && start < run.length; start += 1) {
      walkForms(list.forms, run, start, (end, entry) => {
        // The characters matched must include a real letter: '7 3 5 7' is a number, not 'test'.
        if (LETTER.test(run.slice(start, end))) found.add(entry);
      });
    }
    run = '';
  };
  for (const token of tokens) {
    if ([...token].length === 1) run += token;
    else flush();
  }
  flush();
}

/**
 * The listed words found in the texts (each text on its own: words never join across two texts), in list order,
 * each once. `words` defaults to the spec's list; the server passes the spec's list plus the operator's extra words.
 */
export function findFlaggedWords(texts: ReadonlyArray<string | null | undefined>, words: readonly string[] = FLAGGED_WORDS): string[] {
  const list = compile(words);
  const found = new Set<Entry>();
  for (const text of texts) {
    if (!text) continue;
    const normalised = normaliseForScreen(text);
    for (const symbols of [false, true]) {
      const tokens = tokenise(normalised, symbols);
      scanWords(
        tokens.map((t) => t.toLowerCase()),
        list,
        found,
      );
      scanWords(
        tokens.flatMap(splitJoined).map((t) => t.toLowerCase()),
        list,
        found,
      );
    }
    if (found.size === list.entries.length) break;
  }
  return list.entries.filter((e) => found.has(e)).map((e) => e.word);
}

/**
 * The host of a link (or a bare host) as the screen reads it: lowercased, `xn--` labels decoded to the Unicode the
 * browser shows ('xn--e1a6a7b.example' is 'ѕех.example'), so a look-alike host is folded and screened like a text.
 * Only the host of a link is screened, never its path. '' when there is none.
 */
export function hostForScreen(linkOrHost: string | null | undefined): string {
  const value = (linkOrHost ?? '').trim();
  if (!value) return '';
  let host = value.toLowerCase();
  if (value.includes('://')) {
    try {
      host = new URL(value).hostname.toLowerCase();
    } catch {
      // Not a URL: screen what was given.
    }
  }
  return host
    .split('.')
    .map((label) => (label.startsWith('xn--') ? decodePunycode(label.slice(4)) || label : label))
    .join('.');
}

/** RFC 3492 decoding of one label (without its `xn--`); null when it is not valid punycode. */
function decodePunycode(input: string): string | null {
  const BASE = 36;
  const T_MIN = 1;
  const T_MAX = 26;
  const digit = (code: number) =>
    code >= 48 && code <= 57 ? code - 22 : code >= 97 && code <= 122 ? code - 97 : code >= 65 && code <= 90 ? code - 65 : BASE;
  const adapt = (delta: number, points: number, first: boolean) => {
    let d = first ? Math.floor(delta / 700) : delta >> 1;
    d += Math.floor(d / points);
    let k = 0;
    while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
      d = Math.floor(d / (BASE - T_MIN));
      k += BASE;
    }
    return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + 38));
  };
  if (input.length > 63) return null;
  const delimiter = input.lastIndexOf('-');
  const output: number[] = [];
  for (let j = 0; j < Math.max(delimiter, 0); j += 1) {
    const code = input.charCodeAt(j);
    if (code >= 0x80) return null;
    output.push(code);
  }
  let n = 128;
  let i = 0;
  let bias = 72;
  for (let index = delimiter > 0 ? delimiter + 1 : 0; index < input.length;) {
    const previous = i;
    let weight = 1;
    for (let k = BASE; ; k += BASE) {
      if (index >= input.length) return null;
      const d = digit(input.charCodeAt(index++));
      if (d >= BASE || d > Math.floor((0x7fffffff - i) / weight)) return null;
      i += d * weight;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (d < t) break;
      weight *= BASE - t;
    }
    bias = adapt(i - previous, output.length + 1, previous === 0);
    n += Math.floor(i / (output.length + 1));
    i %= output.length + 1;
    if (n > 0x10ffff) return null;
    output.splice(i, 0, n);
    i += 1;
  }
  return String.fromCodePoint(...output);
}
