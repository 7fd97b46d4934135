// `npm run restore`: the runbook's restore (docs/operations.md, "When the disk dies"). Stops the PostgreSQL running on
// PGDATA if any, restores the newest pgBackRest backup from BACKUP_REPO_PATH into PGDATA (an empty or missing
// directory after a lost disk; --delta over what is left otherwise), starts PostgreSQL, which replays the archived WAL
// to the latest point the repository holds, and waits until it accepts connections. `-- --no-start` leaves the start
// to the operator (a Debian cluster: pg_ctlcluster 15 main start); arguments after `--pgbackrest` go to
// `pgbackrest restore` (e.g. --type=time "--target=2026-11-29 11:00:00+00"). Same settings as npm run backup.
import { backupSettings, restoreLatest, writeBackupConfig } from './lib/backup.ts';
import { ROOT } from './lib/workspace.ts';

const say = (message: string) => console.log(`[restore] ${message}`);

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const passAt = args.indexOf('--pgbackrest');
  const own = passAt < 0 ? args : args.slice(0, passAt);
  const unknown = own.filter((a) => a !== '--no-start');
  if (unknown.length) throw new Error(`unknown arguments: ${unknown.join(' ')} (--no-start, --pgbackrest <restore options>)`);
  const settings = backupSettings(ROOT);
  await writeBackupConfig(settings);
  const started = Date.now();
  const result = await restoreLatest(settings, {
    start: !own.includes('--no-start'),
    extraArgs: passAt < 0 ? [] : args.slice(passAt + 1),
    log: say,
  });
  say(
    `restored in ${result.restoreSeconds.toFixed(1)} s` +
      (result.recoverySeconds === null
        ? `; start PostgreSQL on ${settings.pgData} now: it replays the archived WAL, then accepts connections`
        : `, WAL replayed and PostgreSQL accepting connections ${result.recoverySeconds.toFixed(1)} s later (${((Date.now() - started) / 1000).toFixed(1)} s in all)`),
  );
}

main().catch((error: unknown) => {
  say(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
