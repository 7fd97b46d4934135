import { AppError } from '@pixel-atlas/service-kit/errors';

export const DECODER_BUSY_MESSAGE = 'Too many images are being processed right now. Please try again in a moment.';

/** Every decode slot and queue place is taken: answered 503 with Retry-After (the route answers it itself). */
export class DecoderBusyError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('NOT_READY', DECODER_BUSY_MESSAGE);
    this.name = 'DecoderBusyError';
  }
}

export interface AvatarDecodeSlotsOptions {
  /** Decodes running at once in this process (each is CPU-bound in libvips: more than the cores only queues inside it). */
  concurrency: number;
  /** Decodes allowed to wait for a slot; past it, refused at once. */
  maxQueue: number;
  retryAfterSeconds?: number;
  /** Called as each decode starts (metrics, and tests counting decodes). */
  onDecode?: () => void;
  onRefused?: () => void;
}

/**
 * A small semaphore around image decoding: a large avatar costs 160–250 ms of CPU, so a burst of claims must
 * queue (a few) or be told to come back (the rest), never pile up on the event loop's thread pool.
 */
export class AvatarDecodeSlots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: AvatarDecodeSlotsOptions) {
    if (options.concurrency < 1) throw new Error('concurrency must be at least 1');
  }

  get running(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(decode: () => Promise<T>): Promise<T> {
    if (this.active < this.options.concurrency) {
      this.active += 1;
    } else {
      if (this.waiting.length >= this.options.maxQueue) {
        this.options.onRefused?.();
        throw new DecoderBusyError(this.options.retryAfterSeconds ?? 2);
      }
      // The slot is handed over by the finishing decode (active stays the same).
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      this.options.onDecode?.();
      return await decode();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
