import { describeRoutes, usedOnlyByHandlers, type OpenApiDocument } from '@pixel-atlas/service-kit/openapi';
import type { ModerationMetrics } from './metrics.ts';
import type { Notifier } from './notifier.ts';
import { moderationRoutes } from './routes/moderation.ts';

/** The moderation service's OpenAPI document, from its route schemas (nothing connects). */
export function describeApi(): Promise<OpenApiDocument> {
  return describeRoutes('moderation', async (app) => {
    await app.register(moderationRoutes, {
      site: { name: 'unused' },
      metrics: usedOnlyByHandlers<ModerationMetrics>('metrics'),
      notifier: usedOnlyByHandlers<Notifier>('notifier'),
    });
  });
}
