import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildApiTypes } from './build-api-types.ts';

/** Written only when changed, so a generate before every typecheck leaves an up-to-date tree untouched. */
async function writeIfChanged(file: string, content: string): Promise<boolean> {
  const current = await readFile(file, 'utf8').catch(() => null);
  if (current === content) return false;
  await writeFile(file, content);
  return true;
}

const { document, types } = await buildApiTypes();
const written = [
  (await writeIfChanged(path.join(import.meta.dirname, '..', 'openapi.json'), document)) && 'openapi.json',
  (await writeIfChanged(path.join(import.meta.dirname, 'api.ts'), types)) && 'src/api.ts',
].filter(Boolean);
console.log(written.length ? `wrote packages/api-types/${written.join(' and ')}` : 'packages/api-types is up to date');
