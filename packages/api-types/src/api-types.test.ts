import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { buildApiTypes } from './build-api-types.ts';

it("matches the services' route schemas (run `npm run generate -w @pixel-atlas/api-types` after changing an API)", async () => {
  const fresh = await buildApiTypes();
  const committedDocument = await readFile(path.join(import.meta.dirname, '..', 'openapi.json'), 'utf8');
  const committedTypes = await readFile(path.join(import.meta.dirname, 'api.ts'), 'utf8');
  expect(JSON.parse(committedDocument), 'openapi.json is stale').toEqual(JSON.parse(fresh.document));
  expect(committedTypes, 'src/api.ts is stale').toBe(fresh.types);
});
