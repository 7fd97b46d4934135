// Test support for the moderation service: events as plots would publish them, the stream's contents,
// a local SMTP server and the service mailing through it. Used only by tests.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { EVENTS, type EventData, type EventEnvelope, type EventType } from '@pixel-atlas/contracts/events';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import { servicePerFile } from '@pixel-atlas/service-kit/service-per-file';
import { TEST_INTERNAL_TOKEN, readStream } from '@pixel-atlas/service-kit/testing';
import { SMTPServer } from 'smtp-server';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';

export function adminHeaders(admin = 'warden'): Record<string, string> {
  return { 'x-internal-token': TEST_INTERNAL_TOKEN, 'x-admin-user': admin };
}

type Snapshot = Pick<
  EventData<'plots.plot.claimed'>,
  'plotId' | 'displayName' | 'zone' | 'tier' | 'x' | 'y' | 'message' | 'link' | 'createdAt'
>;

let nextX = 0;
/** A plot as plots' events describe it (a fresh id and position unless given). */
export function plotSnapshot(overrides: Partial<Snapshot> = {}): Snapshot {
  nextX += 1;
  return {
    plotId: randomUUID(),
    displayName: 'Ada',
    zone: 'nexus',
    tier: 'basic',
    x: nextX % 90,
    y: 7,
    message: 'Notes on the analytical engine',
    link: 'https://ada.example',
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

/** An event envelope exactly as an outbox relay writes it, its data checked against the contract. */
export function envelope<T extends EventType>(type: T, data: EventData<T>, occurredAt = new Date()): EventEnvelope<EventData<T>> {
  return {
    id: randomUUID(),
    type,
    occurredAt: occurredAt.toISOString(),
    requestId: `req-${randomUUID()}`,
    data: EVENTS[type].parse(data) as EventData<T>,
  };
}

export function claimedEvent(plot: Snapshot, extra: Partial<EventData<'plots.plot.claimed'>> = {}) {
  return envelope('plots.plot.claimed', {
    ...plot,
    sessionId: `cs_test_${randomUUID()}`,
    size: 1,
    visible: true,
    screenedWords: [],
    notificationEmail: null,
    clientIp: '198.51.100.7',
    ...extra,
  });
}

/** A screened-positive claim: hidden until approved, its words the reasons. */
export function screenedClaimEvent(plot: Snapshot, words: string[], notificationEmail: string | null = null) {
  return claimedEvent(plot, { visible: false, screenedWords: words, notificationEmail });
}

export function flaggedEvent(plot: Snapshot, flagCount: number, reason: string | null = null, occurredAt = new Date()) {
  return envelope('plots.plot.flagged', { ...plot, flagCount, reason }, occurredAt);
}

/** Publishes as a relay would (Nats-Msg-Id = event id unless another message id is given). */
export async function publish(bus: EventBus, event: EventEnvelope, msgID = event.id): Promise<void> {
  await bus.js.publish(bus.subject(event.type), JSON.stringify(event), { msgID });
}

/** Every event in the stream whose type starts with `typePrefix`, in order. */
export async function streamEvents(bus: EventBus, typePrefix = ''): Promise<EventEnvelope<any>[]> {
  const messages = await readStream({ jsm: bus.jsm, stream: bus.settings.stream });
  return messages.map((message) => message.event).filter((event) => event.type.startsWith(typePrefix));
}

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

/** Headers unfolded, a quoted-printable or 7bit text body decoded: enough for the plain e-mails we send. */
export function parseMail(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.slice(split + 4);
  if (/quoted-printable/i.test(headers['content-transfer-encoding'] ?? '')) {
    body = Buffer.from(
      body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  }
  return { headers, text: body.replace(/\r\n/g, '\n').trim() };
}

export interface TestSmtpServer {
  port: number;
  messages: ReceivedMail[];
  close(): Promise<void>;
}

/** A local SMTP server that accepts every message (no TLS, no auth), on the given port or a spare one. */
export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const { headers, text } = parseMail(raw);
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: headers.subject ?? '',
          text,
          raw,
        });
        callback();
      });
    },
  });
  const listening = server.listen(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    listening.once('listening', () => resolve());
    listening.once('error', reject);
  });
  return {
    port: (listening.address() as AddressInfo).port,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Moderation for one test file, as Test Atlas at https://atlas.example, e-mailing through the test SMTP server on
 * `smtpPort()` (read when the app is built, so a server started in an earlier beforeAll) and looking for due
 * notifications every 100 ms; `env` adds or overrides keys.
 */
export function mailingModerationPerFile(smtpPort: () => number, env: Record<string, string>, bus: string) {
  return servicePerFile(
    (base) =>
      buildApp(
        loadEnv({
          ...base,
          SITE_NAME: 'Test Atlas',
          PUBLIC_ORIGIN: 'https://atlas.example',
          SMTP_URL: `smtp://127.0.0.1:${smtpPort()}?ignoreTLS=true`,
          NOTIFY_POLL_INTERVAL_MS: '100',
          ...env,
        }),
      ),
    { bus },
  );
}
