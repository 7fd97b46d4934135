import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { listDeadLetters, replayDeadLetters, type DeadLetter } from './dead-letters.ts';
import { connectBus, type EventBus } from './nats.ts';

/**
 * `npm run events:dead-letters` and `npm run events:replay` (scripts/events-cli.ts finds DATABASE_URL and NATS_URL
 * like `npm start`, then runs this). Reads every service schema that has a dead-letter table.
 *
 *   list [--all] [<consumer|id>]   unreplayed dead letters (--all: replayed ones too)
 *   replay <consumer|id>           publish them again; the consumer's inbox applies each at most once
 */
export interface CliEnv {
  DATABASE_URL?: string;
  NATS_URL?: string;
  NATS_STREAM?: string;
  NATS_SUBJECT_PREFIX?: string;
  NATS_USER?: string;
  NATS_PASSWORD?: string;
  [key: string]: string | undefined;
}

const USAGE = `usage: events:dead-letters [--all] [<consumer|id>]
       events:replay <consumer|dead-letter id|event id>`;

function row(letter: DeadLetter): string {
  const when = (d: Date | null) => (d ? new Date(d).toISOString() : '-');
  return [
    `${letter.schema}/${letter.consumer}`,
    letter.id,
    `event ${letter.eventId ?? '(not an envelope)'}`,
    letter.subject,
    `attempts ${letter.attempts}`,
    `first ${when(letter.firstFailedAt)}`,
    `last ${when(letter.lastFailedAt)}`,
    `replayed ${when(letter.replayedAt)}`,
    `error: ${letter.error.replaceAll(/\s+/g, ' ').slice(0, 200)}`,
  ].join('  ');
}

/**
 * With NATS auth on, an event may be published only by the service it is named after (`plots.plot.claimed`: plots),
 * so the replay connects as that service: NATS_PASSWORD_<SERVICE>, else NATS_USER / NATS_PASSWORD, else anonymously.
 */
function busFactory(env: CliEnv): { busFor: (subject: string) => Promise<EventBus>; close: () => Promise<void> } {
  const buses = new Map<string, Promise<EventBus>>();
  return {
    busFor(subject) {
      const [service = subject] = subject.split('.');
      const own = env[`NATS_PASSWORD_${service.toUpperCase()}`];
      const credentials = own
        ? { user: service, password: own }
        : env.NATS_PASSWORD
          ? { user: env.NATS_USER || service, password: env.NATS_PASSWORD }
          : {};
      const key = credentials.user ?? '';
      let bus = buses.get(key);
      if (!bus) {
        bus = connectBus({
          servers: env.NATS_URL ?? 'nats://127.0.0.1:4222',
          stream: env.NATS_STREAM || 'PIXEL_ATLAS',
          subjectPrefix: env.NATS_SUBJECT_PREFIX ?? '',
          name: 'events-replay',
          ...credentials,
        });
        buses.set(key, bus);
      }
      return bus;
    },
    async close() {
      for (const bus of buses.values()) await (await bus).nc.drain().catch(() => undefined);
    },
  };
}

/** Returns the exit code; writes what it did to `out`. */
export async function runEventsCli(args: string[], env: CliEnv, out: (line: string) => void = console.log): Promise<number> {
  const [command, ...rest] = args;
  if (!env.DATABASE_URL) {
    out('DATABASE_URL is not set');
    return 2;
  }
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 2 });
  try {
    if (command === 'list') {
      const includeReplayed = rest.includes('--all');
      const target = rest.find((a) => !a.startsWith('--'));
      const letters = await listDeadLetters(pool, { includeReplayed, target });
      for (const letter of letters) out(row(letter));
      out(`${letters.length} dead letter${letters.length === 1 ? '' : 's'}${includeReplayed ? '' : ' not yet replayed'}`);
      return 0;
    }
    if (command === 'replay') {
      const target = rest.find((a) => !a.startsWith('--'));
      if (!target) {
        out(USAGE);
        return 2;
      }
      const buses = busFactory(env);
      try {
        const outcomes = await replayDeadLetters(pool, buses.busFor, target);
        for (const { deadLetter, replayed, reason } of outcomes)
          out(`${replayed ? 'replayed' : 'skipped '}  ${row(deadLetter)}${reason ? `  (${reason})` : ''}`);
        const done = outcomes.filter((o) => o.replayed).length;
        out(
          `${done} replayed${outcomes.length > done ? `, ${outcomes.length - done} skipped` : ''}${outcomes.length ? '' : `: nothing unreplayed matches ${target}`}`,
        );
        return outcomes.length > done ? 1 : 0;
      } finally {
        await buses.close();
      }
    }
    out(USAGE);
    return 2;
  } finally {
    await pool.end();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runEventsCli(process.argv.slice(2), process.env).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
}
