import path from 'node:path';
import { screenContentQuery, screenWordsQuery, sendOwnerLinkCommand, sendOwnerLinkRecoveryCommand } from '@pixel-atlas/contracts/queries';
import { inboxPlugin } from '@pixel-atlas/service-kit/inbox';
import { answer, queriesPlugin } from '@pixel-atlas/service-kit/rpc';
import { createBackendService, type BackendService } from '@pixel-atlas/service-kit/backend-service';
import { PrismaClient, SCHEMA } from './db.ts';
import { announceScreenWords } from './domain/announce-screen-words.ts';
import { queueOwnerEdit } from './domain/queue-owner-edit.ts';
import { sendOwnerLink } from './domain/send-owner-link.ts';
import { sendOwnerLinkRecovery } from './domain/send-owner-link-recovery.ts';
import { queueLinkUnreachableNotice } from './domain/queue-link-unreachable-notice.ts';
import { queueScreenedClaim } from './domain/queue-screened-claim.ts';
import { queueVisitorFlag } from './domain/queue-visitor-flag.ts';
import { buildWordList, screenContent } from './domain/screen-content.ts';
import type { ModerationEnv } from './env.ts';
import { createMailer } from './mailer.ts';
import { moderationMetrics, type ModerationMetrics } from './metrics.ts';
import { createNotifier } from './notifier.ts';
import { moderationRoutes } from './routes/moderation.ts';

const migrationsDir = path.resolve(import.meta.dirname, '../prisma/migrations');

/** The moderation service as an app: content screen, review queue, approve/reject, owner notifications. */
export async function buildApp(env: ModerationEnv): Promise<BackendService<PrismaClient, ModerationMetrics>> {
  const app = await createBackendService({
    name: 'moderation',
    description: 'Content screen, the review queue fed by claims and visitor flags, approve/reject with an audit log',
    env,
    schema: SCHEMA,
    migrationsDir,
    createClient: (adapter) => new PrismaClient({ adapter }),
    metrics: moderationMetrics,
  });
  const metrics = app.serviceMetrics;

  await app.register(
    inboxPlugin({
      db: () => app.db,
      consumers: [
        {
          durable: 'moderation',
          schema: SCHEMA,
          handlers: {
            'plots.plot.claimed': async (event, tx, log) => {
              const outcome = await queueScreenedClaim({ tx, claim: event.data });
              if (outcome !== 'clean') log.info({ plotId: event.data.plotId, outcome, words: event.data.screenedWords }, 'screened claim');
            },
            'plots.edit.submitted': async (event, tx, log) => {
              const outcome = await queueOwnerEdit({ tx, edit: event.data });
              log.info(
                { plotId: event.data.plotId, editId: event.data.editId, outcome, words: event.data.screenedWords },
                'owner edit held for review',
              );
            },
            'plots.plot.flagged': async (event, tx, log) => {
              const outcome = await queueVisitorFlag({ tx, flag: event });
              log.info({ plotId: event.data.plotId, outcome, flagCount: event.data.flagCount }, 'visitor flag');
            },
            // The link checker gave up on a plot's link: the owner is e-mailed (the notifier delivers it).
            'plots.link.unreachable': async (event, tx, log) => {
              const outcome = await queueLinkUnreachableNotice({
                tx,
                notice: event.data,
                siteName: env.SITE_NAME,
                publicOrigin: env.PUBLIC_ORIGIN,
              });
              log.info({ plotId: event.data.plotId, outcome, failingSince: event.data.failingSince }, 'plot link unreachable');
            },
          },
        },
      ],
    }),
  );

  const words = buildWordList(env.MODERATION_EXTRA_WORDS);
  const mailer = createMailer(env.SMTP_URL ? { url: env.SMTP_URL, from: env.SMTP_FROM } : null);
  await app.register(queriesPlugin, {
    queue: 'moderation',
    handlers: [
      answer(screenContentQuery, async ({ texts, linkHost }) => {
        const result = screenContent({ texts, linkHost, words });
        if (result.flagged) metrics.screenHits.inc();
        return result;
      }),
      // The list itself, for copies that screen without a round trip per text (plots' claims and owner edits).
      answer(screenWordsQuery, async () => ({ words })),
      // The owner's private link, e-mailed once right after the claim (never queued: see sendOwnerLinkCommand).
      answer(sendOwnerLinkCommand, (request) =>
        sendOwnerLink({ db: app.db, mailer, request, site: { name: env.SITE_NAME, publicOrigin: env.PUBLIC_ORIGIN }, log: app.log }),
      ),
      // "Lost your owner link?": new links of every plot bought with an address, in one e-mail (never queued either).
      answer(sendOwnerLinkRecoveryCommand, (request) =>
        sendOwnerLinkRecovery({
          db: app.db,
          mailer,
          request,
          site: { name: env.SITE_NAME, publicOrigin: env.PUBLIC_ORIGIN },
          log: app.log,
        }),
      ),
    ],
  });

  const notifier = createNotifier({
    db: app.db,
    mailer,
    log: app.log.child({ component: 'notifier' }),
    pollIntervalMs: env.NOTIFY_POLL_INTERVAL_MS,
    maxAttempts: env.NOTIFY_MAX_ATTEMPTS,
    retryBaseMs: env.NOTIFY_RETRY_BASE_MS,
    retryMaxMs: env.NOTIFY_RETRY_MAX_MS,
    onOutcome: (outcome) => metrics.notifications.inc({ outcome }),
  });
  if (!mailer) app.log.info('SMTP_URL not set: owner notifications will be recorded and logged, not e-mailed');
  app.addHook('onReady', async () => {
    notifier.start();
    await announceScreenWords({ db: app.db, words });
    app.outbox.kick();
  });
  // onClose: decisions finishing during shutdown may still have queued a notification.
  app.addHook('onClose', async () => {
    await notifier.stop();
    mailer?.close();
  });

  await app.register(moderationRoutes, { db: app.db, site: { name: env.SITE_NAME, publicOrigin: env.PUBLIC_ORIGIN }, metrics, notifier });
  return app;
}
