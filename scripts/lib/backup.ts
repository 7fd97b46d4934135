// Continuous backup of PostgreSQL with pgBackRest (Debian's `pgbackrest`): WAL archiving (archive_command pushes every
// finished WAL segment to the repository) plus base backups (full, then incremental). `npm run backup` and
// `npm run restore` (scripts/backup.ts, scripts/restore.ts) and the restore drill (faults/restore-drill.test.ts) all
// go through this module, so the drill runs the runbook's own commands (docs/operations.md, "When the disk dies").
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface BackupSettings {
  /** pgBackRest's name for this cluster's backups. */
  stanza: string;
  /** The data directory (PGDATA) of the cluster, as PostgreSQL reports it (`SHOW data_directory`). */
  pgData: string;
  pgPort: number;
  /** The directory of the server's Unix socket: pgBackRest talks to PostgreSQL over it. */
  pgSocketDir: string;
  /** Where backups and archived WAL go: another disk, a mounted volume, or a path inside an S3 bucket (repo1-type=s3). */
  repoPath: string;
  /** The generated pgbackrest.conf (readable by the database's OS user, who runs archive_command). */
  configPath: string;
  /** PostgreSQL's programs (pg_ctl, psql). */
  pgBin: string;
  /** The OS user that owns the data directory; when this process is root, pgBackRest and pg_ctl run as it. */
  osUser: string;
  /** Seconds after which PostgreSQL switches to a new WAL segment even when it is not full: bounds the RPO of a quiet database. */
  archiveTimeoutSeconds: number;
  /** Full backups kept (with the incrementals and WAL they need); older ones are expired after each backup. */
  retentionFull: number;
  /** The server log of a PostgreSQL that `restore` starts. */
  pgLogFile: string;
  /** The password of PGUSER, for a cluster that asks for one (npm start's embedded cluster: scram-sha-256). */
  pgPassword?: string;
}

/**
 * The settings from the environment, with the defaults of `npm start`'s embedded PostgreSQL (.data/postgres, port
 * 54329, socket in the temporary directory) when PGDATA is unset and that cluster exists.
 */
export function backupSettings(root: string, env: NodeJS.ProcessEnv = process.env): BackupSettings {
  const embedded = path.join(root, '.data', 'postgres');
  // The embedded cluster, or the place it was: after its disk died only the config written by an earlier backup says so.
  const useEmbedded = !env.PGDATA && (existsSync(path.join(embedded, 'PG_VERSION')) || backedUpEmbedded(root, embedded));
  const pgData = env.PGDATA || (useEmbedded ? embedded : '');
  if (!pgData) {
    throw new Error(
      'set PGDATA to the data directory of the PostgreSQL to back up (SHOW data_directory; e.g. /var/lib/postgresql/15/main), and PGPORT if it is not 5432',
    );
  }
  const repoPath = env.BACKUP_REPO_PATH || path.join(root, '.data', 'backup-repo');
  return {
    stanza: env.BACKUP_STANZA || 'pixel-atlas',
    pgData: path.resolve(pgData),
    pgPort: Number(env.PGPORT || (useEmbedded ? 54329 : 5432)),
    pgSocketDir: env.PGHOST?.startsWith('/') ? env.PGHOST : useEmbedded ? os.tmpdir() : '/var/run/postgresql',
    repoPath: path.resolve(repoPath),
    configPath: path.resolve(env.BACKUP_CONFIG || path.join(root, '.data', 'pgbackrest', 'pgbackrest.conf')),
    pgBin: env.PG_BIN_DIR || '/usr/lib/postgresql/15/bin',
    osUser: env.PG_OS_USER || 'postgres',
    archiveTimeoutSeconds: Number(env.BACKUP_ARCHIVE_TIMEOUT_SECONDS || 30),
    retentionFull: Number(env.BACKUP_RETENTION_FULL || 2),
    // Where the database's OS user can write: beside its data directory, or in .data/pgbackrest for the embedded cluster
    // (.data is the installing user's).
    pgLogFile:
      env.BACKUP_PG_LOG ||
      (useEmbedded
        ? path.join(root, '.data', 'pgbackrest', 'postgres-restored.log')
        : path.join(path.dirname(path.resolve(pgData)), 'postgres-restored.log')),
    // scripts/lib/infra.ts creates the embedded cluster with this password for postgres.
    pgPassword: env.PGPASSWORD || (useEmbedded ? 'postgres' : undefined),
  };
}

/** Whether the default pgbackrest.conf (written by `npm run backup`) backs up the embedded cluster at `embedded`. */
function backedUpEmbedded(root: string, embedded: string): boolean {
  const config = path.join(root, '.data', 'pgbackrest', 'pgbackrest.conf');
  return existsSync(config) && readFileSync(config, 'utf8').split('\n').includes(`pg1-path=${embedded}`);
}

function osUserIds(user: string): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  return {
    uid: Number(execFileSync('id', ['-u', user]).toString().trim()),
    gid: Number(execFileSync('id', ['-g', user]).toString().trim()),
  };
}

/** Runs a program as the database's OS user (through runuser when we are root: PostgreSQL and pgBackRest refuse root's files). */
async function asDbUser(settings: BackupSettings, program: string, args: string[], timeoutMs = 600_000): Promise<string> {
  const ids = osUserIds(settings.osUser);
  // psql and pgBackRest (libpq) read the password from PGPASSWORD; runuser keeps the environment.
  const options = {
    timeout: timeoutMs,
    maxBuffer: 16 << 20,
    env: settings.pgPassword ? { ...process.env, PGPASSWORD: settings.pgPassword } : process.env,
  };
  try {
    const { stdout } = ids
      ? await run('runuser', ['-u', settings.osUser, '--', program, ...args], options)
      : await run(program, args, options);
    return stdout;
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${path.basename(program)} ${args.join(' ')} failed: ${(e.stderr || e.stdout || e.message).trim()}`, { cause: error });
  }
}

/** A directory owned by the database's OS user (pgBackRest writes the repository as that user). */
async function ownedDir(settings: BackupSettings, dir: string, mode: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  const ids = osUserIds(settings.osUser);
  if (ids) await chown(dir, ids.uid, ids.gid);
  await chmod(dir, mode);
}

/**
 * Writes pgbackrest.conf: the repository (a path; S3 and the other repository types by PGBACKREST_REPO1_* variables,
 * copied into the file: archive_command does not see this shell's environment) and the cluster. Backups start with an immediate checkpoint and are compressed
 * with lz4 (fast, on a 2-core machine); logs go to the console only.
 */
export async function writeBackupConfig(settings: BackupSettings, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const configDir = path.dirname(settings.configPath);
  await ownedDir(settings, configDir, 0o750);
  await ownedDir(settings, path.join(configDir, 'lock'), 0o750);
  // PostgreSQL runs archive_command with its own environment, not this shell's: the repository's PGBACKREST_REPO1_*
  // settings (S3 bucket, keys, encryption) go into the file, which only the database's OS user can read.
  const repoOptions = Object.entries(env)
    .filter(([key, value]) => key.startsWith('PGBACKREST_REPO1_') && value)
    .map(([key, value]) => `${key.slice('PGBACKREST_'.length).toLowerCase().replaceAll('_', '-')}=${value}`);
  if (!env.PGBACKREST_REPO1_TYPE || env.PGBACKREST_REPO1_TYPE === 'posix') await ownedDir(settings, settings.repoPath, 0o750);
  const text = [
    '# Written by scripts/lib/backup.ts (npm run backup / npm run restore); edits are overwritten.',
    '[global]',
    ...(env.PGBACKREST_REPO1_PATH ? [] : [`repo1-path=${settings.repoPath}`]),
    ...repoOptions,
    `repo1-retention-full=${settings.retentionFull}`,
    'start-fast=y',
    'compress-type=lz4',
    'log-level-console=warn',
    'log-level-file=off',
    `lock-path=${path.join(configDir, 'lock')}`,
    '',
    `[${settings.stanza}]`,
    `pg1-path=${settings.pgData}`,
    `pg1-port=${settings.pgPort}`,
    `pg1-socket-path=${settings.pgSocketDir}`,
    '',
  ].join('\n');
  await writeFile(settings.configPath, text, { mode: 0o640 });
  const ids = osUserIds(settings.osUser);
  if (ids) await chown(settings.configPath, ids.uid, ids.gid);
}

function pgbackrest(settings: BackupSettings, args: string[], timeoutMs?: number): Promise<string> {
  return asDbUser(settings, 'pgbackrest', [`--config=${settings.configPath}`, `--stanza=${settings.stanza}`, ...args], timeoutMs);
}

/** The archive_command that pushes each finished WAL segment to the repository. */
export function archiveCommand(settings: BackupSettings): string {
  return `pgbackrest --config=${settings.configPath} --stanza=${settings.stanza} archive-push %p`;
}

/** PostgreSQL settings for continuous archiving (archive_mode needs a restart; the others a reload). */
export function archiveSettings(settings: BackupSettings): Record<string, string> {
  return {
    wal_level: 'replica',
    archive_mode: 'on',
    archive_command: archiveCommand(settings),
    archive_timeout: String(settings.archiveTimeoutSeconds),
  };
}

async function psql(settings: BackupSettings, sql: string): Promise<string> {
  const out = await asDbUser(settings, path.join(settings.pgBin, 'psql'), [
    '-h',
    settings.pgSocketDir,
    '-p',
    String(settings.pgPort),
    '-U',
    process.env.PGUSER || 'postgres',
    '-d',
    'postgres',
    // Never wait for a password on a terminal nobody watches.
    '-w',
    '-XAtq',
    '-v',
    'ON_ERROR_STOP=1',
    '-c',
    sql,
  ]);
  return out.trim();
}

const quote = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * Turns archiving on in a running cluster (ALTER SYSTEM: postgresql.auto.conf). Returns whether PostgreSQL must be
 * restarted for it (archive_mode was off, or wal_level too low).
 */
export async function enableArchiving(settings: BackupSettings): Promise<{ restartNeeded: boolean }> {
  const before = await psql(settings, "SELECT current_setting('archive_mode') || ' ' || current_setting('wal_level')");
  for (const [name, value] of Object.entries(archiveSettings(settings))) await psql(settings, `ALTER SYSTEM SET ${name} = ${quote(value)}`);
  await psql(settings, 'SELECT pg_reload_conf()');
  const [mode, level] = before.split(' ');
  return { restartNeeded: mode === 'off' || level === 'minimal' };
}

/** Creates the stanza (idempotent: an existing, matching stanza is left alone). */
export async function ensureStanza(settings: BackupSettings): Promise<void> {
  await pgbackrest(settings, ['stanza-create']);
}

/** pgbackrest check: the database answers, archive_command works (a WAL switch reaches the repository). */
export async function checkBackups(settings: BackupSettings): Promise<void> {
  await pgbackrest(settings, ['check']);
}

export interface BackupInfo {
  backups: Array<{ label: string; type: string; startedAt: Date; stoppedAt: Date }>;
  /** The newest archived WAL segment, if any. */
  archiveMax: string | null;
}

export async function backupInfo(settings: BackupSettings): Promise<BackupInfo> {
  const [stanza] = JSON.parse(await pgbackrest(settings, ['info', '--output=json'])) as Array<{
    backup?: Array<{ label: string; type: string; timestamp: { start: number; stop: number } }>;
    archive?: Array<{ max: string | null }>;
  }>;
  return {
    backups: (stanza?.backup ?? []).map((b) => ({
      label: b.label,
      type: b.type,
      startedAt: new Date(b.timestamp.start * 1000),
      stoppedAt: new Date(b.timestamp.stop * 1000),
    })),
    archiveMax: stanza?.archive?.at(-1)?.max ?? null,
  };
}

/** A base backup while the database runs (full the first time: pgBackRest turns an incr without a prior full into a full). */
export async function takeBackup(
  settings: BackupSettings,
  type: 'full' | 'diff' | 'incr' = 'incr',
): Promise<BackupInfo['backups'][number]> {
  await pgbackrest(settings, ['backup', `--type=${type}`]);
  const newest = (await backupInfo(settings)).backups.at(-1);
  if (!newest) throw new Error('pgbackrest backup finished but info lists no backup');
  return newest;
}

function postmasterRunning(pgData: string): boolean {
  const pidFile = path.join(pgData, 'postmaster.pid');
  if (!existsSync(pidFile)) return false;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface RestoreResult {
  /** Whether the data directory had files (restored with --delta: only what differs is rewritten). */
  delta: boolean;
  /** Seconds spent in pgbackrest restore, and in PostgreSQL's recovery until it accepted connections. */
  restoreSeconds: number;
  recoverySeconds: number | null;
}

/**
 * Restores the newest backup into the data directory and has PostgreSQL replay archived WAL to the end of the
 * archive (the latest point the repository holds), then starts it (unless `start: false`): a server still running on
 * the data directory is stopped first (fast). `extraArgs` go to `pgbackrest restore` (e.g. --type=time
 * "--target=2026-11-29 11:00:00+00" for a point in time).
 */
export async function restoreLatest(
  settings: BackupSettings,
  options: { start?: boolean; extraArgs?: string[]; log?: (message: string) => void } = {},
): Promise<RestoreResult> {
  const log = options.log ?? (() => undefined);
  const pgCtl = path.join(settings.pgBin, 'pg_ctl');
  if (postmasterRunning(settings.pgData)) {
    log(`stopping the PostgreSQL running on ${settings.pgData}…`);
    await asDbUser(settings, pgCtl, ['-D', settings.pgData, '-m', 'fast', '-w', '-t', '60', 'stop']);
  }
  const delta = existsSync(settings.pgData) && readdirSync(settings.pgData).length > 0;
  await ownedDir(settings, settings.pgData, 0o700);
  log(
    `restoring the newest backup of stanza ${settings.stanza} from ${settings.repoPath} into ${settings.pgData}${delta ? ' (--delta)' : ''}…`,
  );
  const restoreStarted = Date.now();
  await pgbackrest(settings, ['restore', ...(delta ? ['--delta'] : []), ...(options.extraArgs ?? [])], 3_600_000);
  const restoreSeconds = (Date.now() - restoreStarted) / 1000;
  if (options.start === false) return { delta, restoreSeconds, recoverySeconds: null };
  log('starting PostgreSQL: it replays the archived WAL to the end of the archive, then accepts connections…');
  const recoveryStarted = Date.now();
  // -w waits for the end of recovery (the server accepts no connection before); a long replay gets an hour.
  await asDbUser(
    settings,
    pgCtl,
    [
      '-D',
      settings.pgData,
      '-l',
      settings.pgLogFile,
      '-o',
      `-p ${settings.pgPort} -c unix_socket_directories='${settings.pgSocketDir}'`,
      '-w',
      '-t',
      '3600',
      'start',
    ],
    3_660_000,
  );
  return { delta, restoreSeconds, recoverySeconds: (Date.now() - recoveryStarted) / 1000 };
}
