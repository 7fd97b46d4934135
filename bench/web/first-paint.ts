/**
 * `npm run check:web-first-paint` — the JavaScript a first paint needs, for the two documents the web build ships:
 *   - web/dist/index.html, the home page: its boot entry (src/boot.ts) draws the map before the app loads;
 *   - web/dist/app.html, every other page (and the shells the gateway renders into): the app's own entry.
 * Each is the scripts the HTML references (module scripts and modulepreloads) plus everything they import statically,
 * transitively. Dynamic `import()`s (lazy screens; the app, from the boot) are not followed: they load after.
 *
 * Prints each file (raw, gzip -9, brotli q11) and the total per document, and exits 1 when a gzip total is over its
 * budget (Chromium sends no `br` over plain http, so gzip is what a phone gets there). A byte budget, not a timing:
 * the same build always gives the same figure.
 *
 *   --dist=web/dist           the build to measure (default: web/dist; run `npm run build -w @pixel-atlas/web` first)
 *   --budget-gzip-kb=130      the app's budget (app.html), in KB (1024 bytes) gzip
 *   --boot-budget-gzip-kb=40  the home page's budget (index.html)
 *   --modules[=N]             also attribute the raw bytes to packages / source folders through the .map files (top N, default 25)
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zc, gzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * The first paint of / is ~113 KB gzip (react-dom, react-router, query-core, the home screen). The headroom absorbs
 * ordinary growth, not a library: zod alone (an import of a schema module such as @pixel-atlas/contracts/tiers
 * instead of ./tier-catalog) adds ~24 KB; the Radix toast and tooltip with floating-ui, taken out of it, were ~20 KB.
 */
export const DEFAULT_BUDGET_GZIP_KB = 130;
/**
 * The home page's boot is ~24 KB gzip (the engine, the world grid, the boot itself). The headroom is for the engine's
 * growth; a budget near the app's would let React slip back in before the map's first frame unnoticed.
 */
export const DEFAULT_BOOT_BUDGET_GZIP_KB = 40;

export interface FileSizes {
  file: string;
  raw: number;
  gzip: number;
  br: number;
}

/** Scripts the HTML itself loads before anything runs: module scripts and modulepreloads of same-origin JS. */
export function entryScripts(html: string): string[] {
  const found = new Set<string>();
  for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
    const src = /\bsrc="([^"]+)"/.exec(tag)?.[1];
    if (src && /\btype="module"/.test(tag)) found.add(src);
  }
  for (const tag of html.match(/<link\b[^>]*>/g) ?? []) {
    const href = /\bhref="([^"]+)"/.exec(tag)?.[1];
    if (href && /\brel="modulepreload"/.test(tag)) found.add(href);
  }
  return [...found].filter((url) => url.startsWith('/') && !url.startsWith('//'));
}

/**
 * Relative specifiers of a built chunk's static imports and re-exports (`import"./a.js"`, `import{x}from"./a.js"`,
 * `export*from"./a.js"`). `import("./a.js")` has a parenthesis between the keyword and the quote, so it is not matched.
 */
export function staticImports(code: string): string[] {
  const out = new Set<string>();
  for (const match of code.matchAll(/(?:\bimport|\bfrom)\s*["'](\.{1,2}\/[^"']+\.js)["']/g)) out.add(match[1]!);
  return [...out];
}

/** Every file of a document's first paint, entry first, in the order discovered (paths relative to dist). */
export function firstPaintFiles(distDir: string, document = 'index.html'): string[] {
  const html = readFileSync(path.join(distDir, document), 'utf8');
  const queue = entryScripts(html).map((url) => url.replace(/^\//, ''));
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(path.join(distDir, file), 'utf8');
    for (const spec of staticImports(code)) queue.push(path.posix.join(path.posix.dirname(file), spec));
  }
  return [...seen];
}

export function sizesOf(distDir: string, file: string): FileSizes {
  const data = readFileSync(path.join(distDir, file));
  return {
    file,
    raw: data.length,
    gzip: gzipSync(data, { level: 9 }).length,
    br: brotliCompressSync(data, { params: { [zc.BROTLI_PARAM_QUALITY]: 11, [zc.BROTLI_PARAM_SIZE_HINT]: data.length } }).length,
  };
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Source map v3 `mappings`: per generated line, [generated column, source index] of each segment (absolute). */
function decodeMappings(mappings: string): Array<Array<[number, number]>> {
  const lines: Array<Array<[number, number]>> = [];
  let source = 0;
  for (const line of mappings.split(';')) {
    const segments: Array<[number, number]> = [];
    let column = 0;
    for (const segment of line.split(',')) {
      if (!segment) continue;
      const fields: number[] = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) {
          shift += 5;
        } else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0]!;
      if (fields.length >= 4) {
        source += fields[1]!;
        segments.push([column, source]);
      } else {
        segments.push([column, -1]);
      }
    }
    lines.push(segments);
  }
  return lines;
}

/** "react-dom", "@radix-ui/react-dialog", "contracts/src/tiers.ts", "web/src/pages/home": where a source file belongs. */
export function groupOf(source: string): string {
  const normalized = source.replace(/\\/g, '/');
  const nm = normalized.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = normalized.slice(nm + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const packages = /(?:^|\/)(packages\/[^/]+\/src\/.+)$/.exec(normalized);
  if (packages) return packages[1]!;
  const web = /(?:^|\/)web\/(src(?:\/.+)?)\/[^/]+$/.exec(normalized);
  return web ? `web/${web[1]}` : normalized;
}

/** Raw bytes of the generated code attributed to each group through the chunk's source map. */
export function attribute(distDir: string, files: string[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const file of files) {
    const mapFile = path.join(distDir, `${file}.map`);
    const code = readFileSync(path.join(distDir, file), 'utf8');
    if (!existsSync(mapFile)) {
      totals.set(`(no source map) ${file}`, Buffer.byteLength(code));
      continue;
    }
    const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[]; mappings: string };
    const codeLines = code.split('\n');
    decodeMappings(map.mappings).forEach((segments, lineIndex) => {
      const line = codeLines[lineIndex] ?? '';
      segments.forEach(([column, source], i) => {
        const end = segments[i + 1]?.[0] ?? line.length;
        const bytes = Buffer.byteLength(line.slice(column, end));
        const group = source >= 0 ? groupOf(map.sources[source]!) : '(unmapped)';
        totals.set(group, (totals.get(group) ?? 0) + bytes);
      });
    });
  }
  return totals;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

interface Measured {
  document: string;
  what: string;
  budgetKb: number;
  files: string[];
  sizes: FileSizes[];
  total: Omit<FileSizes, 'file'>;
}

function measure(distDir: string, document: string, what: string, budgetKb: number): Measured {
  const files = firstPaintFiles(distDir, document).filter((file) => file.endsWith('.js'));
  const sizes = files.map((file) => sizesOf(distDir, file));
  const total = sizes.reduce((sum, s) => ({ raw: sum.raw + s.raw, gzip: sum.gzip + s.gzip, br: sum.br + s.br }), {
    raw: 0,
    gzip: 0,
    br: 0,
  });
  return { document, what, budgetKb, files, sizes, total };
}

function print(m: Measured, distLabel: string, modulesTop: number | null, distDir: string) {
  console.log(`\nfirst paint of ${m.what} (${distLabel}/${m.document} + static imports; KB = 1024 bytes)`);
  console.log(['file'.padEnd(44), 'raw'.padStart(8), 'gzip'.padStart(8), 'br'.padStart(8)].join(' '));
  for (const s of m.sizes) console.log([s.file.padEnd(44), kb(s.raw).padStart(8), kb(s.gzip).padStart(8), kb(s.br).padStart(8)].join(' '));
  const t = m.total;
  console.log(
    [`total (${m.sizes.length} files)`.padEnd(44), kb(t.raw).padStart(8), kb(t.gzip).padStart(8), kb(t.br).padStart(8)].join(' '),
  );
  if (modulesTop !== null) {
    const groups = [...attribute(distDir, m.files)].sort((a, b) => b[1] - a[1]);
    console.log(`raw bytes by package / source folder (top ${modulesTop} of ${groups.length})`);
    for (const [group, bytes] of groups.slice(0, modulesTop)) console.log(`${kb(bytes).padStart(8)}  ${group}`);
  }
  const within = t.gzip <= m.budgetKb * 1024;
  console.log(`${within ? 'within' : 'OVER'} budget: ${kb(t.gzip)} KB gzip ${within ? '<=' : '>'} ${m.budgetKb} KB`);
  return within;
}

function main() {
  const arg = (name: string) => process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  const value = (name: string) => arg(name)?.split('=')[1];
  const distDir = path.resolve(ROOT, value('dist') ?? 'web/dist');
  const documents = [
    { document: 'index.html', what: 'the home page, /', budgetKb: Number(value('boot-budget-gzip-kb') ?? DEFAULT_BOOT_BUDGET_GZIP_KB) },
    { document: 'app.html', what: 'every other page', budgetKb: Number(value('budget-gzip-kb') ?? DEFAULT_BUDGET_GZIP_KB) },
  ];
  const missing = documents.find(({ document }) => !existsSync(path.join(distDir, document)));
  if (missing) {
    console.error(`no ${path.join(distDir, missing.document)}: build the web app first (npm run build -w @pixel-atlas/web)`);
    process.exit(2);
  }
  const modulesTop = arg('modules') ? Number(value('modules') ?? 25) : null;
  const distLabel = path.relative(ROOT, distDir) || distDir;
  const results = documents.map((d) => print(measure(distDir, d.document, d.what, d.budgetKb), distLabel, modulesTop, distDir));
  if (results.includes(false)) process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
