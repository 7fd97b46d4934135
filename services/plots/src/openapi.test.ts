import { expect, it } from 'vitest';
import { describeApi } from './openapi.ts';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';

const world = worldPerFile();

it('plots and payments publish OpenAPI documents generated from the contracts', async () => {
  const plots = await world.plots.inject('/openapi.json');
  expect(plots.statusCode).toBe(200);
  const plotPaths = Object.keys(plots.json().paths);
  expect(plotPaths).toEqual(
    expect.arrayContaining([
      '/api/plots',
      '/api/plots/{id}',
      '/api/plots/{id}/avatar',
      '/api/claim-plot',
      '/api/position-available',
      '/api/users/{username}/plots',
    ]),
  );
  expect(JSON.stringify(plots.json())).toContain('ClaimPlotRequest');
  expect(plots.json().paths, 'the public document is built from describeApi()').toEqual((await describeApi()).paths);
  const payments = await world.payments.inject('/openapi.json');
  expect(payments.statusCode).toBe(200);
  expect(Object.keys(payments.json().paths)).toEqual(
    expect.arrayContaining([
      '/api/create-checkout-session',
      '/api/verify-session/{sessionId}',
      '/api/payments/stripe-webhook',
      '/api/test-checkout/{sessionId}',
      '/api/test-checkout/{sessionId}/pay',
    ]),
  );
  expect((await world.plots.inject('/readyz')).json()).toMatchObject({ status: 'ready', checks: { database: 'ok', nats: 'ok' } });
  expect((await world.payments.inject('/readyz')).json()).toMatchObject({ status: 'ready' });
});
