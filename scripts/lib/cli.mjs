// What the operator commands that run one of the repository's TypeScript CLIs share (admin:create, events:*).
import { spawn } from 'node:child_process';
import { ensureInfra } from './infra.mjs';
import { ROOT } from './workspace.mjs';

/**
 * Brings up what `infra` asks for (PostgreSQL, NATS: the machine's, or embedded ones started for the purpose), runs
 * `cli` with node --import tsx and inherited stdio (Ctrl-C and SIGTERM forwarded to it), stops what was started,
 * and exits with the CLI's code; any failure before is printed as `[tag] message` and exits 1.
 * @param {{ tag: string, cli: string, args: string[], infra: { nats?: boolean },
 *   env: (infra: Awaited<ReturnType<typeof ensureInfra>>, say: (message: string) => void) => Promise<Record<string, string>> }} options
 */
export async function runRepositoryCli({ tag, cli, args, infra: infraOptions, env }) {
  process.chdir(ROOT);
  const say = (/** @type {string} */ message) => console.error(`[${tag}] ${message}`);
  /** @type {Awaited<ReturnType<typeof ensureInfra>> | undefined} */
  let infra;
  try {
    infra = await ensureInfra({ root: ROOT, log: say, ...infraOptions });
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...(await env(infra, say)) },
      stdio: 'inherit',
    });
    for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => child.kill(signal));
    const code = await new Promise((resolve) => {
      child.once('error', () => resolve(1));
      child.once('exit', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
    });
    await infra.stop();
    process.exit(code);
  } catch (err) {
    say(err instanceof Error ? err.message : String(err));
    if (infra) await infra.stop();
    process.exit(1);
  }
}
