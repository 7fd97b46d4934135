import { FLAGGED_WORDS } from '@pixel-atlas/contracts/content-screen';
import { describe, expect, it } from 'vitest';
import { buildWordList, normaliseHost, screenContent } from './screen-content.ts';

const floor = buildWordList();

describe('screenContent', () => {
  it('uses the spec list as the floor: test, fuck, shit, damn, hate, kill, sex, porn, drug', () => {
    expect(floor).toEqual(['test', 'fuck', 'shit', 'damn', 'hate', 'kill', 'sex', 'porn', 'drug']);
    expect(floor).toEqual([...FLAGGED_WORDS]);
  });

  it.each(FLAGGED_WORDS.map((w) => [w]))('flags "%s" in the message', (word) => {
    expect(screenContent({ texts: ['Ada', `my ${word} site`], words: floor })).toEqual({ flagged: true, words: [word] });
  });

  it.each(FLAGGED_WORDS.map((w) => [w]))('flags "%s" in the display name', (word) => {
    expect(screenContent({ texts: [`${word}er`, 'hello'], words: floor })).toEqual({ flagged: true, words: [word] });
  });

  it('ignores case', () => {
    expect(screenContent({ texts: ['HATE', 'Porn and DrUgS'], words: floor }).words).toEqual(['hate', 'porn', 'drug']);
  });

  it('matches whole words, not substrings (ARCHITECTURE.md section 7): "Contest", "Skillful" and "Essex" pass', () => {
    expect(screenContent({ texts: ['The Contest', 'Skillful'], words: floor })).toEqual({ flagged: false, words: [] });
    expect(
      screenContent({ texts: ['Essex Skill School', 'Latest Android builds'], linkHost: 'scunthorpe.gov.uk', words: floor }).flagged,
    ).toBe(false);
    expect(screenContent({ texts: ['I make sextants', 'Chloe'], words: floor }).flagged).toBe(false);
    expect(screenContent({ texts: ['Essex walks', 'no sex please'], words: floor }).words).toEqual(['sex']);
  });

  it('normalises before matching: invisible and bidi characters, fullwidth forms, homoglyphs, leetspeak', () => {
    expect(screenContent({ texts: ['s\u0435x', ''], words: floor }).words).toEqual(['sex']); // Cyrillic е
    expect(screenContent({ texts: ['k\u200Bi\u200Dll', '\u202Edamn\u202C'], words: floor }).words).toEqual(['damn', 'kill']);
    expect(screenContent({ texts: ['ｔｅｓｔ', 'h4te'], words: floor }).words).toEqual(['test', 'hate']);
    expect(screenContent({ texts: ['Ada', 'p.o.r.n'], words: floor }).words).toEqual(['porn']);
  });

  it('reports each word once, in list order', () => {
    expect(screenContent({ texts: ['kill kill test', 'test'], words: floor }).words).toEqual(['test', 'kill']);
  });

  it("screens the link's host", () => {
    expect(screenContent({ texts: ['Ada', 'Clean words'], linkHost: 'free-PORN.example', words: floor })).toEqual({
      flagged: true,
      words: ['porn'],
    });
    expect(
      screenContent({ texts: ['Ada', 'Clean words'], linkHost: 'https://www.cheap-drugs.example/a/b?c=1', words: floor }).words,
    ).toEqual(['drug']);
    // The host's labels are words: a pharmacy's 'drugstore' is not the word 'drug' (it was under the substring rule).
    expect(screenContent({ texts: ['Ada', 'Clean words'], linkHost: 'https://www.drugstore.example/a/b?c=1', words: floor }).flagged).toBe(
      false,
    );
  });

  it('decodes international host names, so a look-alike host is screened too', () => {
    const host = new URL('https://\u0455\u0435\u0445.example/').hostname; // 'ѕех' in Cyrillic, punycoded by URL
    expect(host.startsWith('xn--')).toBe(true);
    expect(screenContent({ texts: ['Ada', 'Clean words'], linkHost: host, words: floor }).words).toEqual(['sex']);
    expect(screenContent({ texts: ['Ada', 'Clean words'], linkHost: `https://${host}/x`, words: floor }).words).toEqual(['sex']);
  });

  it("does not screen a link's path, only its host", () => {
    expect(screenContent({ texts: ['Ada', 'Clean words'], linkHost: 'https://ada.example/sex', words: floor }).flagged).toBe(false);
  });

  it('does not match across the boundary between two texts', () => {
    expect(screenContent({ texts: ['Mo tes', 'table'], words: floor }).flagged).toBe(false);
  });

  it('lets clean content through', () => {
    expect(screenContent({ texts: ['Ada Lovelace', 'Notes on the analytical engine'], linkHost: 'ada.example', words: floor })).toEqual({
      flagged: false,
      words: [],
    });
    expect(screenContent({ texts: ['', null, undefined], linkHost: null, words: floor })).toEqual({ flagged: false, words: [] });
  });

  it('adds the extra words from configuration, trimmed, lowercased, without blanks or repeats', () => {
    const words = buildWordList(' Casino, crypto-giveaway,,TEST , casino');
    expect(words).toEqual([...FLAGGED_WORDS, 'casino', 'crypto-giveaway']);
    expect(screenContent({ texts: ['Lucky CASINO', 'Join our Crypto-Giveaway'], words }).words).toEqual(['casino', 'crypto-giveaway']);
    expect(screenContent({ texts: ['Lucky', 'hi'], linkHost: 'casino.example', words }).words).toEqual(['casino']);
    // The extra words never replace the floor.
    expect(screenContent({ texts: ['damn', ''], words }).words).toEqual(['damn']);
  });

  it('normalises hosts', () => {
    expect(normaliseHost(' Example.COM ')).toBe('example.com');
    expect(normaliseHost('http://User@Sub.Example.com:8080/x')).toBe('sub.example.com');
    expect(normaliseHost(null)).toBe('');
    expect(normaliseHost('xn--80ak6aa92e.com')).toBe('\u0430\u0440\u0440\u04cf\u0435.com');
  });
});
