/** What no plot (nor the site it links to) may hold: the terms and the FAQ list these same rules. */
export const PROHIBITED_CONTENT = [
  'Adult or NSFW content',
  'Illegal activities',
  'Hate speech',
  'Spam or scams',
  'Violence',
  'Copyright infringement',
] as const;
