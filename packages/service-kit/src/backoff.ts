/**
 * How long to wait before the next try after `attempt` failed tries in a row (1 = the first failure), capped at
 * `maxMs`. Either doubling from `baseMs` (base, 2×base, 4×base…, at most `maxDoublings` times), or a fixed schedule
 * `stepsMs` whose last step repeats. The one formula of the system: the polling loops, the inbox's redeliveries and
 * the owners' e-mails all wait by it. (The admin sign-in throttle computes the same doubling inside the SQL statement
 * that reserves an attempt, so that two sign-ins at once cannot both pass: see sign-in-admin.ts.)
 */
export type BackoffSchedule = { baseMs: number; maxMs: number; maxDoublings?: number } | { stepsMs: readonly number[]; maxMs: number };

export function backoffDelay(attempt: number, schedule: BackoffSchedule): number {
  const tries = Math.max(1, Math.floor(attempt));
  if ('stepsMs' in schedule) {
    const step = schedule.stepsMs[Math.min(tries, schedule.stepsMs.length) - 1];
    return Math.min(schedule.maxMs, step ?? schedule.maxMs);
  }
  const doublings = Math.min(tries - 1, schedule.maxDoublings ?? 30);
  return Math.min(schedule.maxMs, schedule.baseMs * 2 ** doublings);
}
