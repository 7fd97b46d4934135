import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { testBedPerFile } from './service-per-file.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

const bed = testBedPerFile();
let service: ServiceProcess | undefined;

afterEach(async () => {
  await service?.stop();
  service = undefined;
});

/** The IPv4 addresses the kernel says are listening on `port` (from /proc/net/tcp: the socket's own bind address). */
async function listeningAddresses(port: number): Promise<string[]> {
  const table = await readFile('/proc/net/tcp', 'utf8');
  return table
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols[3] === '0A' && parseInt(cols[1]!.split(':')[1]!, 16) === port)
    .map((cols) => {
      const hex = cols[1]!.split(':')[0]!;
      return [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16)).join('.');
    });
}

const portOf = (url: string) => Number(new URL(url).port);

describe('the operations port (/metrics, detailed /readyz)', () => {
  it('listens on loopback by default, even when the service itself listens on every address', async () => {
    service = await startServiceProcess('contact', { ...bed.env, HOST: '0.0.0.0', LOG_LEVEL: 'warn' });
    expect(await listeningAddresses(service.port)).toEqual(['0.0.0.0']);
    expect(await listeningAddresses(portOf(service.metricsUrl))).toEqual(['127.0.0.1']);
    expect((await fetch(`${service.metricsUrl}/metrics`)).status).toBe(200);
  });

  it('listens where OPS_HOST says (compose sets 0.0.0.0 for Prometheus on the private network)', async () => {
    service = await startServiceProcess('contact', { ...bed.env, HOST: '127.0.0.1', OPS_HOST: '0.0.0.0', LOG_LEVEL: 'warn' });
    expect(await listeningAddresses(portOf(service.metricsUrl))).toEqual(['0.0.0.0']);
    expect(await listeningAddresses(service.port)).toEqual(['127.0.0.1']);
  });
});
