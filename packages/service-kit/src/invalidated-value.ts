/** How many times a read loads again when the value is invalidated while it loads, before it gives up. */
const MAX_RELOADS = 5;

export interface InvalidatedValueOptions<T> {
  load: () => Promise<T>;
  /**
   * How long a loaded value answers, in ms, counted from the start of its load. Absent: until `invalidate()`. 0: every
   * read loads (reads at the same moment share one load).
   */
  maxAgeMs?: number;
  /**
   * Past `maxAgeMs`: 'reload' makes the read wait for a new load (the age is what keeps replicas close, for changes no
   * event announces); 'in-background' answers the old value while one load runs (a safety net for a lost event).
   */
  whenOld?: 'reload' | 'in-background';
  /**
   * A load failed while an earlier value is held: answer that value rather than the error (an older list beats an
   * error page), and tell this callback why. Without it the read fails.
   */
  keepOnError?: (error: unknown) => void;
  /**
   * A read whose load an `invalidate()` overtook: 'answer' gives it that load (it asked before the change, as a
   * request in flight would have been answered; under a stream of changes every read still ends); 'reload' loads
   * again, up to 5 times, then fails (a copy that must never be older than the last change heard).
   */
  overtaken?: 'answer' | 'reload';
  /** The clock `maxAgeMs` is measured on (tests move it). */
  now?: () => number;
}

/**
 * One value this process keeps of something that changes elsewhere (a list, the map's layout, another service's
 * data): loaded on first use, shared by every read (one load at a time), and dropped by `invalidate()` when its owner
 * says it changed. A load that an `invalidate()` overtook is never kept; whether the reads waiting on it get it is
 * `overtaken`'s choice. The one mechanism behind the services' caches of a single value; the gateway's documents use
 * lru-cache for many.
 */
export class InvalidatedValue<T> {
  private generation = 0;
  private held: { generation: number; value: T; loadedAt: number } | null = null;
  private loading: { generation: number; promise: Promise<T> } | null = null;
  private readonly now: () => number;

  constructor(private readonly options: InvalidatedValueOptions<T>) {
    this.now = options.now ?? (() => Date.now());
  }

  async get(): Promise<T> {
    for (let reloads = 0; ; reloads++) {
      const held = this.held;
      if (held && held.generation === this.generation) {
        if (!this.isOld(held.loadedAt)) return held.value;
        if (this.options.whenOld === 'in-background') {
          this.startLoad().catch((error: unknown) => this.options.keepOnError?.(error));
          return held.value;
        }
      }
      const generation = this.generation;
      let value: T;
      try {
        value = await this.startLoad();
      } catch (error) {
        const kept = this.held;
        if (!kept || !this.options.keepOnError) throw error;
        this.options.keepOnError(error);
        return kept.value;
      }
      if (generation === this.generation || this.options.overtaken !== 'reload') return value;
      if (reloads >= MAX_RELOADS) throw new Error('the value kept changing while it loaded');
    }
  }

  /** The value when it is held and current, without waiting for anything (a hot path answers at once); else undefined. */
  peek(): T | undefined {
    const held = this.held;
    return held && held.generation === this.generation && !this.isOld(held.loadedAt) ? held.value : undefined;
  }

  /** Something the value shows changed: the next read loads it again (a load under way is not answered). */
  invalidate(): void {
    this.generation += 1;
  }

  /** How many times the value was invalidated (tests). */
  get invalidations(): number {
    return this.generation;
  }

  private isOld(loadedAt: number): boolean {
    const { maxAgeMs } = this.options;
    return maxAgeMs !== undefined && this.now() - loadedAt >= maxAgeMs;
  }

  /** The load of the current generation: the one under way, or a new one. */
  private startLoad(): Promise<T> {
    if (this.loading?.generation === this.generation) return this.loading.promise;
    const generation = this.generation;
    const loadedAt = this.now();
    const promise = this.options.load().then(
      (value) => {
        if (generation === this.generation) this.held = { generation, value, loadedAt };
        if (this.loading?.generation === generation) this.loading = null;
        return value;
      },
      (error: unknown) => {
        if (this.loading?.generation === generation) this.loading = null;
        throw error;
      },
    );
    this.loading = { generation, promise };
    return promise;
  }
}
