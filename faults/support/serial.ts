import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** Locks are per checkout: two checkouts on one machine do not wait for each other. */
const lockDir = (name: string) =>
  path.join(os.tmpdir(), `pixel-atlas-faults-${createHash('sha256').update(repoRoot).digest('hex').slice(0, 12)}-${name}.lock`);
/** Waiting for the lock is part of the file's setup: every short file before this one may run first. */
const WAIT_MS = 30 * 60_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** mkdir is atomic: whoever creates the directory holds the lock; a holder that died without releasing it is cleared. */
async function acquire(name: string): Promise<void> {
  const LOCK_DIR = lockDir(name);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      await mkdir(LOCK_DIR);
      await writeFile(path.join(LOCK_DIR, 'pid'), String(process.pid));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(await readFile(path.join(LOCK_DIR, 'pid'), 'utf8').catch(() => ''));
    // No pid yet: the holder is between mkdir and writeFile; only a dead holder's lock is taken over.
    if (holder && !alive(holder)) await rm(LOCK_DIR, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error(`waited ${WAIT_MS / 60_000} min for ${LOCK_DIR} (held by pid ${holder || '?'})`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function release(name: string): Promise<void> {
  const LOCK_DIR = lockDir(name);
  const holder = Number(await readFile(path.join(LOCK_DIR, 'pid'), 'utf8').catch(() => ''));
  if (holder === process.pid) await rm(LOCK_DIR, { recursive: true, force: true });
}

/**
 * The project runs its files in parallel so the long outages (minutes each, mostly waiting) overlap one
 * another and the short files. The short files each load both cores for a minute or two and time their
 * faults in seconds: they take this lock so only one of them runs at a time. Call it at the top of the
 * file, before any other hook (beforeAll hooks run in order, afterAll hooks in reverse).
 */
export function oneShortFileAtATime(): void {
  beforeAll(async () => {
    await longBootsDone();
    await acquire('short');
  }, WAIT_MS + 60_000);
  afterAll(() => release('short'));
}

/** Long files booting their stacks: one marker file per test process, named by its pid. */
const LONG_BOOTS = lockDir('long-boots');

/**
 * A long file says, as soon as it is imported, that it is about to boot its stack; the short files wait
 * until every long stack is up (see `longBootsDone`), so their faults, timed in seconds, never share the
 * machine with three stacks compiling and generating their maps.
 */
export function announceLongBoot(): () => void {
  mkdirSync(LONG_BOOTS, { recursive: true });
  const marker = path.join(LONG_BOOTS, String(process.pid));
  writeFileSync(marker, '');
  return () => void rm(marker, { force: true });
}

/** Waits (after a grace for the long files to be imported and announce themselves) until no live long file is booting. */
async function longBootsDone(): Promise<void> {
  await new Promise((r) => setTimeout(r, 15_000));
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const pids = (await readdir(LONG_BOOTS).catch(() => [] as string[])).map(Number).filter((pid) => pid && pid !== process.pid);
    const live = pids.filter(alive);
    for (const dead of pids.filter((pid) => !alive(pid))) await rm(path.join(LONG_BOOTS, String(dead)), { force: true });
    if (!live.length) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * Runs `work` while no other file of this checkout runs its own: every file boots a whole stack (six or
 * seven processes, each compiling its TypeScript) at the same moment, and on a loaded machine so many at once
 * starve each other past any ready timeout. One after the other, each is up in well under a minute.
 */
export async function oneAtATime<T>(name: string, work: () => Promise<T>): Promise<T> {
  await acquire(name);
  try {
    return await work();
  } finally {
    await release(name);
  }
}
