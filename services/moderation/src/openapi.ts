import { describeRoutes, usedOnlyByHandlers } from '@pixel-atlas/service-kit/describe-routes';
import type { OpenApiDocument } from '@pixel-atlas/service-kit/openapi';
import { moderationRoutes, type ModerationRoutesOptions } from './routes/moderation.ts';
import type { PrismaClient } from './db.ts';

/** The moderation service's OpenAPI document, from its route schemas (nothing connects). */
export function describeApi(): Promise<OpenApiDocument> {
  return describeRoutes('moderation', async (app) => {
    const db = usedOnlyByHandlers<PrismaClient>('db');
    await app.register(moderationRoutes, {
      db,
      site: { name: 'unused' },
      metrics: usedOnlyByHandlers<ModerationRoutesOptions['metrics']>('metrics'),
      notifier: usedOnlyByHandlers<ModerationRoutesOptions['notifier']>('notifier'),
    });
  });
}
