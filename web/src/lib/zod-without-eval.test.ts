import { describe, expect, it } from 'vitest';

describe('zod without eval', () => {
  it('is read by zod: schemas built after it parse interpreted (jitless), so no `new Function` probe under our CSP', async () => {
    await import('./zod-without-eval.ts');
    const { config } = await import('zod/v4/core');
    const { z } = await import('zod');
    expect(config().jitless).toBe(true);
    expect(z.object({ name: z.string() }).parse({ name: 'Ada' })).toEqual({ name: 'Ada' });
  });
});
