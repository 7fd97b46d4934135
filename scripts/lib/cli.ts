// What the operator commands that run one of the repository's TypeScript CLIs share (admin:create, events:*).
import { spawn } from 'node:child_process';
import { ensureInfra, type Infra } from './infra.ts';
import { ROOT } from './workspace.ts';

export interface RepositoryCli {
  /** The prefix of this command's own messages: `[tag] message`. */
  tag: string;
  /** The CLI's file, relative to the root. */
  cli: string;
  args: string[];
  infra: { nats?: boolean };
  /** The CLI's environment over this process's, once the infrastructure is up. */
  env: (infra: Infra, say: (message: string) => void) => Promise<Record<string, string>>;
}

/**
 * Brings up what `infra` asks for (PostgreSQL, NATS: the machine's, or embedded ones started for the purpose), runs
 * `cli` with node --import tsx and inherited stdio (Ctrl-C and SIGTERM forwarded to it), stops what was started,
 * and exits with the CLI's code; any failure before is printed as `[tag] message` and exits 1.
 */
export async function runRepositoryCli({ tag, cli, args, infra: infraOptions, env }: RepositoryCli): Promise<never> {
  process.chdir(ROOT);
  const say = (message: string) => console.error(`[${tag}] ${message}`);
  let infra: Infra | undefined;
  try {
    infra = await ensureInfra({ root: ROOT, log: say, ...infraOptions });
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...(await env(infra, say)) },
      stdio: 'inherit',
    });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
    const code = await new Promise<number>((resolve) => {
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
