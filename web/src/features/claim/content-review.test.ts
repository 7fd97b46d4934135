import { describe, expect, it } from 'vitest';
import { contentReviewKey, contentReviewWords, needsContentReview } from './content-review.ts';

const profile = (display_name: string, message = '', link = '') => ({ display_name, message, link });

describe("the browser's content screen before payment", () => {
  it('lets names that merely contain a listed word through (the spec substring rule asked about all of them)', () => {
    const names = [
      'Essex Skill School',
      'Latest Android builds',
      'I make sextants',
      'Chloe',
      'Scunthorpe',
      'Middlesex',
      'The Contest',
      'Drugstore Cowboy',
      'Matsushita',
      'Whatever works',
    ];
    expect(names.filter((name) => needsContentReview(profile(name, name)))).toEqual([]);
    expect(needsContentReview(profile('Ada', 'Maps', 'https://essex.example/sex-and-the-city'))).toBe(false);
  });

  it('asks about listed words, however they are disguised, in the name, the message or the link host', () => {
    expect(contentReviewWords(profile('Damn Fine Pixels'))).toEqual(['damn']);
    expect(contentReviewWords(profile('Night Owl', 's\u0435x'))).toEqual(['sex']); // Cyrillic е
    expect(contentReviewWords(profile('K\u200Bi\u200Bl\u200Bl Bill'))).toEqual(['kill']);
    expect(contentReviewWords(profile('\u202Ehate\u202C mail'))).toEqual(['hate']);
    expect(contentReviewWords(profile('ＴＥＳＴ'))).toEqual(['test']);
    expect(contentReviewWords(profile('Ada', 'd.r.u.g.s'))).toEqual(['drug']);
    expect(contentReviewWords(profile('Ada', 'Maps', 'https://www.free-porn.example/page'))).toEqual(['porn']);
    expect(contentReviewWords(profile('Ada', 'Maps', 'https://\u0440\u043Ern.example/'))).toEqual(['porn']);
    expect(needsContentReview(profile('Ada', 'Maps', 'not a url yet'))).toBe(false);
  });

  it('keys the screened fields, the link included', () => {
    expect(contentReviewKey(profile('a', 'b', 'https://x.example'))).not.toBe(contentReviewKey(profile('a', 'b', 'https://y.example')));
    expect(contentReviewKey(profile('a', 'b'))).toBe(contentReviewKey(profile('a', 'b')));
  });
});
