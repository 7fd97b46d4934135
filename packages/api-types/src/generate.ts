import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildApiTypes } from './build-api-types.ts';

const { document, types } = await buildApiTypes();
await writeFile(path.join(import.meta.dirname, '..', 'openapi.json'), document);
await writeFile(path.join(import.meta.dirname, 'api.ts'), types);
console.log('wrote packages/api-types/openapi.json and src/api.ts');
