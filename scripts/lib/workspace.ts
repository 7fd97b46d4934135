// What start, test and the ops tests share about the repository: its workspaces, running prisma generate and the web
// build, and the small secrets kept under .data/. Which services exist, their ports and upstream variables:
// @pixel-atlas/contracts/services.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './infra.ts';

export { ROOT };

/** Workspace folders (root package.json `workspaces`, `dir/*` and plain folders). */
export function workspaceDirs(root = ROOT): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { workspaces?: string[] };
  const dirs: string[] = [];
  for (const pattern of pkg.workspaces ?? []) {
    if (pattern.endsWith('/*')) {
      const parent = path.join(root, pattern.slice(0, -2));
      if (!existsSync(parent)) continue;
      for (const d of readdirSync(parent, { withFileTypes: true })) {
        if (d.isDirectory() && existsSync(path.join(parent, d.name, 'package.json'))) dirs.push(path.join(parent, d.name));
      }
    } else if (existsSync(path.join(root, pattern, 'package.json'))) {
      dirs.push(path.join(root, pattern));
    }
  }
  return dirs;
}

export const bin = (root: string, name: string) => path.join(root, 'node_modules', '.bin', name);

/** Runs a command with inherited stdio; resolves with its exit code. */
export function run(command: string, args: string[], { cwd = ROOT, env = process.env } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** `turbo run generate` (prisma generate of every service with a DB), when any workspace defines `generate`. */
export async function runGenerate(root = ROOT, { log = console.log } = {}) {
  const withGenerate = workspaceDirs(root).filter((dir) => {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    return Boolean(pkg.scripts?.generate);
  });
  if (withGenerate.length === 0) return;
  log(`generating Prisma clients (${withGenerate.map((d) => path.relative(root, d)).join(', ')})…`);
  const code = await run(bin(root, 'turbo'), ['run', 'generate', '--output-logs=errors-only'], {
    cwd: root,
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', CHECKPOINT_DISABLE: '1' },
  });
  if (code !== 0) throw new Error(`turbo run generate failed (exit code ${code})`);
}

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'generated') continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

/** The web's build inputs are newer than web/dist (or there is no build yet). */
export function webBuildIsStale(root = ROOT) {
  const built = path.join(root, 'web', 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const inputs = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'web/package.json', 'packages/contracts/src'].map((p) =>
    newestMtime(path.join(root, p)),
  );
  return Math.max(...inputs) > statSync(built).mtimeMs;
}

/** Builds web/dist (vite) when it is missing or stale, or always with { force: true }. */
export async function buildWeb(root = ROOT, { force = false, log = console.log } = {}) {
  if (!existsSync(path.join(root, 'web', 'index.html'))) {
    log('web: no web/index.html yet, skipping the web build');
    return;
  }
  if (!force && !webBuildIsStale(root)) {
    log('web: web/dist is up to date');
    return;
  }
  log('web: building web/dist (vite build)…');
  // Built beside web/dist and swapped in by renames, so a build running at the same time (another test run, npm start)
  // and a site serving web/dist never see a half-written or emptied folder.
  const web = path.join(root, 'web');
  const fresh = path.join(web, `.dist-${process.pid}-${Date.now()}`);
  const code = await run('npm', ['run', 'build', '--workspace', '@pixel-atlas/web', '--', '--outDir', fresh, '--emptyOutDir'], {
    cwd: root,
  });
  if (code !== 0) {
    rmSync(fresh, { recursive: true, force: true });
    rmSync(`${fresh}-server`, { recursive: true, force: true });
    throw new Error(`web build failed (exit code ${code})`);
  }
  // The client files, then the server bundle built beside them (web/vite.config.ts): the gateway reads both at start.
  swapIn(fresh, path.join(web, 'dist'));
  swapIn(`${fresh}-server`, path.join(web, 'dist-server'));
}

/** Puts a freshly built folder in place of `target` by renames (the old one removed), never emptying `target` in between. */
function swapIn(fresh: string, target: string) {
  for (let attempt = 0; ; attempt++) {
    const old = `${fresh}-old${attempt}`;
    try {
      renameSync(target, old);
    } catch {
      // no target yet (first build, or another build is between its two renames)
    }
    try {
      renameSync(fresh, target);
      break;
    } catch (error) {
      if (attempt >= 20) throw error; // another build put its folder back in between: move it aside again
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  }
}

/** Reads a secret kept in a file under .data/, creating it (mode 0600) the first time. Returns { value, created }. */
export function readOrCreateSecret(file: string, generate: () => string): { value: string; created: boolean } {
  if (existsSync(file)) {
    const value = readFileSync(file, 'utf8').trim();
    if (value) return { value, created: false };
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const value = generate();
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return { value, created: true };
}

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('hex');
export const randomPassword = () => randomBytes(15).toString('base64url');
