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

  it('matches substrings (the spec says substring, so "contest" contains "test")', () => {
    expect(screenContent({ texts: ['The Contest', 'Skillful'], words: floor }).words).toEqual(['test', 'kill']);
    expect(screenContent({ texts: ['Essex walks', ''], words: floor }).words).toEqual(['sex']);
  });

  it('reports each word once, in list order', () => {
    expect(screenContent({ texts: ['kill kill test', 'test'], words: floor }).words).toEqual(['test', 'kill']);
  });

  it("screens the link's host", () => {
    expect(screenContent({ texts: ['Ada', 'Clean words'], linkHost: 'free-PORN.example', words: floor })).toEqual({ flagged: true, words: ['porn'] });
    expect(screenContent({ texts: ['Ada', 'Clean words'], linkHost: 'https://www.drugstore.example/a/b?c=1', words: floor }).words).toEqual(['drug']);
  });

  it("does not screen a link's path, only its host", () => {
    expect(screenContent({ texts: ['Ada', 'Clean words'], linkHost: 'https://ada.example/sex', words: floor }).flagged).toBe(false);
  });

  it('does not match across the boundary between two texts', () => {
    expect(screenContent({ texts: ['Mo tes', 'table'], words: floor }).flagged).toBe(false);
  });

  it('lets clean content through', () => {
    expect(screenContent({ texts: ['Ada Lovelace', 'Notes on the analytical engine'], linkHost: 'ada.example', words: floor })).toEqual({ flagged: false, words: [] });
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
  });
});
