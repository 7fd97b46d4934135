import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { expect, it } from 'vitest';

it("the committed openapi.json passes Redocly's recommended ruleset without errors", async () => {
  const file = path.join(import.meta.dirname, '..', 'openapi.json');
  const problems = await lintFromString({
    source: await readFile(file, 'utf8'),
    absoluteRef: file,
    config: await createConfig({ extends: ['recommended'] }),
  });
  const errors = problems
    .filter((problem) => problem.severity === 'error')
    .map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer ?? '?'}: ${problem.message}`);
  expect(errors).toEqual([]);
});
