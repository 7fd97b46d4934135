import { AppError } from '@pixel-atlas/service-kit/errors';
import pLimit, { type LimitFunction } from 'p-limit';

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
 * A bound around image decoding: a large avatar costs 160–250 ms of CPU, so a burst of claims must queue (a few)
 * or be told to come back (the rest), never pile up on the event loop's thread pool. p-limit runs and queues the
 * decodes (as it does the gateway's share cards); what it lacks, and this adds, is a queue that refuses when full.
 */
export class AvatarDecodeSlots {
  private readonly limit: LimitFunction;

  constructor(private readonly options: AvatarDecodeSlotsOptions) {
    if (options.concurrency < 1) throw new Error('concurrency must be at least 1');
    this.limit = pLimit(options.concurrency);
  }

  get running(): number {
    return this.limit.activeCount;
  }

  get queued(): number {
    return this.limit.pendingCount;
  }

  async run<T>(decode: () => Promise<T>): Promise<T> {
    // p-limit counts synchronously, so a burst arriving in one tick is bounded too.
    if (this.limit.activeCount + this.limit.pendingCount >= this.options.concurrency + this.options.maxQueue) {
      this.options.onRefused?.();
      throw new DecoderBusyError(this.options.retryAfterSeconds ?? 2);
    }
    return this.limit(() => {
      this.options.onDecode?.();
      return decode();
    });
  }
}
