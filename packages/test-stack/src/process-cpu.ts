import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** How many ticks a second /proc's times count (USER_HZ). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces): index 1 is the parent's pid. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

const ticksMs = (...ticks: Array<string | undefined>) => (ticks.reduce((sum, t) => sum + Number(t), 0) * 1000) / CLOCK_TICKS;

/**
 * CPU a process has used so far (user + system), in ms; undefined where there is no such process. Benchmarks read it
 * before and after a phase: on a shared machine req/s also measure whatever else ran meanwhile, CPU per request much less.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const fields = statFields(pid);
  return fields && ticksMs(fields[11], fields[12]);
}

function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * PostgreSQL's CPU so far, in ms: every live postgres process on the machine (a benchmark's database is the busy one),
 * plus what each postmaster's exited children used (a backend whose connection closed takes its time with it otherwise).
 */
export function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || commandOf(Number(entry)) !== 'postgres') continue;
    const fields = statFields(Number(entry));
    if (!fields) continue;
    const postmaster = commandOf(Number(fields[1])) !== 'postgres';
    total += ticksMs(fields[11], fields[12], ...(postmaster ? [fields[13], fields[14]] : []));
  }
  return total;
}
