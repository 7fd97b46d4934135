import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, type PortRange } from './free-port.ts';

const registries: string[] = [];
afterAll(() => Promise.all(registries.map((dir) => rm(dir, { recursive: true, force: true }))));

/** Four ports of the range below the kernel's, with a registry of their own. */
async function smallRange(from: number): Promise<PortRange> {
  const registry = await mkdtemp(path.join(os.tmpdir(), 'pa-ports-'));
  registries.push(registry);
  return { from, to: from + 4, registry };
}

/** Another process that reserves every port of `range`, prints them, and holds them until its stdin closes. */
async function otherProcessHolding(range: PortRange) {
  const script = `
    import { freePort } from ${JSON.stringify(path.join(import.meta.dirname, 'free-port.ts'))};
    const range = ${JSON.stringify(range)};
    const ports = [];
    for (let i = 0; i < 4; i++) ports.push(await freePort(range));
    console.log(JSON.stringify(ports));
    process.stdin.resume();
    process.stdin.on('end', () => process.exit(0));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [line] = (await once(readline.createInterface({ input: child.stdout }), 'line')) as [string];
  return {
    ports: JSON.parse(line) as number[],
    exit: () => new Promise<void>((resolve) => child.once('exit', () => resolve()).stdin.end()),
  };
}

describe('freePort', () => {
  it('hands out listenable ports below the kernel ephemeral range, which no port-0 listener can be given', async () => {
    const floor = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) expect(port).toBeLessThan(floor);
    expect(new Set(ports).size).toBe(ports.length);
    // And a server really gets it.
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(ports[0], '127.0.0.1', resolve));
    expect((server.address() as net.AddressInfo).port).toBe(ports[0]);
    await new Promise((resolve) => server.close(resolve));
  });

  it('never hands out a port another live process holds, and takes over the ports of one that has exited', async () => {
    const range = await smallRange(21_000 + 4 * Math.floor(Math.random() * 500));
    const other = await otherProcessHolding(range);
    expect(new Set(other.ports)).toEqual(new Set([range.from, range.from + 1, range.from + 2, range.from + 3]));

    // Every port of the range is held: this process gets one from the kernel instead.
    const meanwhile = await freePort(range);
    expect(meanwhile < range.from || meanwhile >= range.to).toBe(true);

    await other.exit();
    const after = [await freePort(range), await freePort(range)];
    for (const port of after) expect(port >= range.from && port < range.to).toBe(true);
    expect(after[0]).not.toBe(after[1]);
  });
});
