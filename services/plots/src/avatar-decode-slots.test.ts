import { describe, expect, it } from 'vitest';
import { AvatarDecodeSlots, DecoderBusyError } from './avatar-decode-slots.ts';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('AvatarDecodeSlots', () => {
  it('runs at most `concurrency` decodes at once, queues up to `maxQueue`, refuses the rest with a retryable busy error', async () => {
    let now = 0;
    let peak = 0;
    let started = 0;
    let refused = 0;
    const slots = new AvatarDecodeSlots({
      concurrency: 2,
      maxQueue: 2,
      retryAfterSeconds: 3,
      onDecode: () => started++,
      onRefused: () => refused++,
    });
    const gates = Array.from({ length: 4 }, gate);
    const decode = (g: ReturnType<typeof gate>) => async () => {
      now += 1;
      peak = Math.max(peak, now);
      await g.opened;
      now -= 1;
      return 'png';
    };
    const runs = gates.map((g) => slots.run(decode(g)));
    await new Promise((r) => setImmediate(r));
    expect({ running: slots.running, queued: slots.queued, started }).toEqual({ running: 2, queued: 2, started: 2 });

    const fifth = slots.run(async () => 'never');
    await expect(fifth).rejects.toBeInstanceOf(DecoderBusyError);
    await expect(fifth).rejects.toMatchObject({ code: 'NOT_READY', statusCode: 503, retryAfterSeconds: 3 });
    expect(refused).toBe(1);

    // A finishing decode hands its slot to the next in line.
    gates[0]!.open();
    await runs[0];
    await new Promise((r) => setImmediate(r));
    expect({ running: slots.running, queued: slots.queued, started }).toEqual({ running: 2, queued: 1, started: 3 });
    for (const g of gates) g.open();
    expect(await Promise.all(runs)).toEqual(['png', 'png', 'png', 'png']);
    expect(peak).toBe(2);
    expect({ running: slots.running, queued: slots.queued }).toEqual({ running: 0, queued: 0 });
  });

  it('frees the slot when a decode fails', async () => {
    const slots = new AvatarDecodeSlots({ concurrency: 1, maxQueue: 0 });
    await expect(slots.run(async () => Promise.reject(new Error('broken image')))).rejects.toThrow('broken image');
    expect(await slots.run(async () => 'ok')).toBe('ok');
  });
});
