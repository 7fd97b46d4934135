// `npm test`: every test (unit, integration against real PostgreSQL and NATS, browser tests) in one vitest run.
//   PostgreSQL (same detection as npm start) and the nats-server binary -> prisma generate -> web build (browser tests serve web/dist)
//   -> vitest run (reporters default + json into .data/test-report.json; extra CLI args pass through)
//   -> the plain line `tests: N passed, N failed, N skipped` -> exit with vitest's code, stopping started infra.
// Tests get DATABASE_URL = the server's `postgres` database (helpers create a database per test file) and
// NATS_SERVER_BIN: every test file starts its own nats-server with the production users and permissions
// (service-kit testing.ts), so the machine's NATS (unauthenticated) is never used.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureInfra, findExecutable, InfraError, NATS_MISSING_MESSAGE, type Infra } from './lib/infra.ts';
import { failureLines, readReport, summaryLine } from './lib/summary.ts';
import { ROOT, bin, buildWeb, runGenerate } from './lib/workspace.ts';

process.chdir(ROOT);
const say = (message: string) => console.log(`[test] ${message}`);
const REPORT = path.join(ROOT, '.data', 'test-report.json');

let infra: Infra | undefined;
let vitest: ChildProcess | undefined;
let stopping = false;

async function finish(code: number): Promise<void> {
  if (infra) await infra.stop();
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    say(`${signal} received, stopping`);
    if (vitest && vitest.exitCode === null) vitest.kill(signal);
    else void finish(130);
  });
}

async function main() {
  const args = process.argv.slice(2);
  const natsServer = process.env.NATS_SERVER_BIN || findExecutable('nats-server');
  if (!natsServer) throw new InfraError(NATS_MISSING_MESSAGE);
  infra = await ensureInfra({ root: ROOT, log: say, nats: false });
  await runGenerate(ROOT, { log: say });
  // CI builds from scratch every time; locally only when web/dist is missing or older than its sources.
  await buildWeb(ROOT, { force: process.env.CI === 'true', log: say });
  if (stopping) return finish(130);

  mkdirSync(path.dirname(REPORT), { recursive: true });
  rmSync(REPORT, { force: true }); // never count a previous run's report

  const env = {
    ...process.env,
    DATABASE_URL: infra.postgresUrl,
    NATS_SERVER_BIN: natsServer,
    TURBO_TELEMETRY_DISABLED: '1',
    CHECKPOINT_DISABLE: '1',
  };
  const vitestArgs = ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${REPORT}`, ...args];
  say(`vitest ${vitestArgs.join(' ')}`);
  const child = spawn(bin(ROOT, 'vitest'), vitestArgs, { cwd: ROOT, env, stdio: 'inherit' });
  vitest = child;
  const code = await new Promise<number>((resolve) => {
    child.once('error', (err) => {
      say(`could not run vitest: ${err.message}`);
      resolve(1);
    });
    child.once('exit', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
  });

  const report = readReport(REPORT);
  console.log('');
  if (!report) {
    console.log(`tests: no report at ${path.relative(ROOT, REPORT)} (vitest exited with code ${code} before writing it)`);
    return finish(code === 0 ? 1 : code);
  }
  for (const line of failureLines(report, ROOT)) console.log(line);
  console.log(summaryLine(report));
  return finish(code);
}

main().catch(async (err) => {
  console.error(err instanceof InfraError ? err.message : `[test] ${err instanceof Error ? err.message : String(err)}`);
  await finish(1);
});
