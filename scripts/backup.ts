// `npm run backup`: a base backup of PostgreSQL with pgBackRest into BACKUP_REPO_PATH (incremental, full the first
// time; `-- --full` or `-- --diff` to choose). `-- --setup` first writes the pgBackRest config and turns WAL archiving
// on in the running cluster (ALTER SYSTEM; PostgreSQL must then be restarted once if archive_mode was off);
// `-- --check` checks that the database answers and WAL reaches the repository, and lists the backups.
// Settings (scripts/lib/backup.ts): PGDATA, PGPORT, PGHOST (socket directory), BACKUP_REPO_PATH, BACKUP_STANZA,
// BACKUP_CONFIG, BACKUP_ARCHIVE_TIMEOUT_SECONDS, BACKUP_RETENTION_FULL; S3 through PGBACKREST_REPO1_* (docs/operations.md).
import { parseArgs } from 'node:util';
import {
  archiveCommand,
  backupInfo,
  backupSettings,
  checkBackups,
  enableArchiving,
  ensureStanza,
  takeBackup,
  writeBackupConfig,
} from './lib/backup.ts';
import { ROOT } from './lib/workspace.ts';

const say = (message: string) => console.log(`[backup] ${message}`);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { setup: { type: 'boolean' }, check: { type: 'boolean' }, full: { type: 'boolean' }, diff: { type: 'boolean' } },
  });
  const settings = backupSettings(ROOT);
  await writeBackupConfig(settings);
  say(`stanza ${settings.stanza}: ${settings.pgData} (port ${settings.pgPort}) -> ${settings.repoPath} (config ${settings.configPath})`);
  if (values.setup) {
    const { restartNeeded } = await enableArchiving(settings);
    say(`archive_command = '${archiveCommand(settings)}', archive_timeout = ${settings.archiveTimeoutSeconds} s`);
    if (restartNeeded) {
      say('archive_mode was off: restart PostgreSQL once (e.g. pg_ctlcluster 15 main restart), then run npm run backup');
      return;
    }
  }
  await ensureStanza(settings);
  if (values.check) {
    await checkBackups(settings);
    const info = await backupInfo(settings);
    say(`check passed: WAL reaches the repository (newest archived segment ${info.archiveMax ?? 'none'})`);
    for (const b of info.backups) say(`  ${b.label} ${b.type} ${b.stoppedAt.toISOString()}`);
    if (!info.backups.length) say('  no base backup yet: run npm run backup');
    return;
  }
  const type = values.full ? 'full' : values.diff ? 'diff' : 'incr';
  const started = Date.now();
  const backup = await takeBackup(settings, type);
  say(`${backup.type} backup ${backup.label} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((error: unknown) => {
  say(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
