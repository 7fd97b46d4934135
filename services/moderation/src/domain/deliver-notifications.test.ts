import { freePort } from '@pixel-atlas/service-kit/free-port';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminHeaders,
  mailingModerationPerFile,
  plotSnapshot,
  publish,
  screenedClaimEvent,
  startSmtpServer,
  type TestSmtpServer,
} from '../testing/moderation-world.ts';

let smtpPort: number;
let smtp: TestSmtpServer | null = null;
beforeAll(async () => {
  smtpPort = await freePort();
  smtp = await startSmtpServer(smtpPort);
});
afterAll(async () => smtp?.close());
const service = mailingModerationPerFile(
  () => smtpPort,
  {
    SMTP_FROM: 'Test Atlas <moderation@atlas.example>',
    NOTIFY_RETRY_BASE_MS: '200',
    NOTIFY_RETRY_MAX_MS: '400',
  },
  'moderation-mail-test',
);

async function queuedPlot(displayName: string, email: string) {
  const plot = plotSnapshot({ displayName, message: 'hello there' });
  const event = screenedClaimEvent(plot, ['hate'], email);
  await publish(service.bus, event);
  await eventually(async () => (await service.app.db.reviewItem.count({ where: { plotId: plot.plotId } })) === 1, 15_000);
  return plot;
}

function decide(action: 'approve' | 'reject', plotId: string) {
  return service.app.inject({ method: 'POST', url: `/api/admin/${action}-plot`, payload: { plotId }, headers: adminHeaders() });
}

describe('owner notifications over SMTP', () => {
  it('e-mails the owner of an approved plot', async () => {
    const plot = await queuedPlot('Hateful Eight Fan Club', 'fan@example.com');
    expect((await decide('approve', plot.plotId)).statusCode).toBe(200);
    const mail = await eventually(async () => smtp!.messages.find((m) => m.to.includes('fan@example.com')));
    expect(mail.from).toBe('moderation@atlas.example');
    expect(mail.subject).toBe("Your plot 'Hateful Eight Fan Club' is now live on Test Atlas");
    expect(mail.text).toContain(`It is now live on Test Atlas: https://atlas.example/plot/${plot.plotId}`);
    const row = await eventually(async () => {
      const found = await service.app.db.notification.findFirst({ where: { plotId: plot.plotId } });
      return found?.status === 'sent' ? found : null;
    });
    expect(row).toMatchObject({ email: 'fan@example.com', kind: 'approved', attempts: 1, lastError: null });
    expect(row.sentAt).toBeInstanceOf(Date);
  });

  it('e-mails the owner of a rejected plot: content policy, no refund, the contact page', async () => {
    const plot = await queuedPlot('I hate Mondays', 'monday@example.com');
    expect((await decide('reject', plot.plotId)).statusCode).toBe(200);
    const mail = await eventually(async () => smtp!.messages.find((m) => m.to.includes('monday@example.com')));
    expect(mail.to).toEqual(['monday@example.com']);
    expect(mail.subject).toBe("Your plot 'I hate Mondays' has been removed from Test Atlas");
    expect(mail.text).toMatch(/does not meet our content policy/);
    expect(mail.text).toMatch(/not refunded/);
    expect(mail.text).toContain('contact page (https://atlas.example/contact)');
  });

  it('keeps a notification through an SMTP outage and delivers it once the server is back', async () => {
    await smtp!.close();
    smtp = null;
    const plot = await queuedPlot('Outage Hater', 'patient@example.com');
    const started = Date.now();
    const response = await decide('approve', plot.plotId);
    // The decision never waits for (or fails with) the mail server.
    expect(response.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(2000);
    const failing = await eventually(async () => {
      const found = await service.app.db.notification.findFirst({ where: { plotId: plot.plotId } });
      return found && found.attempts >= 2 ? found : null;
    });
    expect(failing).toMatchObject({ status: 'pending', email: 'patient@example.com' });
    expect(failing.lastError).toMatch(/ECONNREFUSED|connect/i);

    smtp = await startSmtpServer(smtpPort);
    const mail = await eventually(async () => smtp!.messages.find((m) => m.to.includes('patient@example.com')), 15_000);
    expect(mail.subject).toBe("Your plot 'Outage Hater' is now live on Test Atlas");
    const delivered = await eventually(async () => {
      const found = await service.app.db.notification.findFirst({ where: { plotId: plot.plotId } });
      return found?.status === 'sent' ? found : null;
    });
    expect(delivered.attempts).toBeGreaterThanOrEqual(3);
    expect(smtp.messages.filter((m) => m.to.includes('patient@example.com'))).toHaveLength(1);
    expect((await service.app.inject('/metrics')).body).toMatch(
      /moderation_notifications_total\{outcome="retry",service="moderation"\} [1-9]/,
    );
  });
});
