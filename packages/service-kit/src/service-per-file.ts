import { afterAll, beforeAll } from 'vitest';
import { connectBus, type EventBus } from './nats.ts';
import type { TestNatsServer } from './test-nats-server.ts';
import { createTestDatabase, createTestStream, testServiceEnv, type TestDatabase, type TestStream } from './testing.ts';

export interface TestBedOptions {
  /** Connects `bus` as the test operator under this name, for what the test publishes and asks itself. */
  bus?: string;
  /**
   * The broker of a test that stops and resumes it (started in an earlier beforeAll). The test destroys it, and the
   * stream with it; by default the bed starts a broker of its own and removes it.
   */
  natsServer?: () => TestNatsServer;
}

/** A test file's own database and stream, with the service env that points at them. */
export interface TestBed {
  readonly db: TestDatabase;
  readonly stream: TestStream;
  readonly env: Record<string, string>;
  /** Only with the `bus` option. */
  readonly bus: EventBus;
}

export interface ServiceTestBed<App> extends TestBed {
  readonly app: App;
  /** Every replica, `app` first, on the same database and stream: started one after the other, as a scale-out does. */
  readonly replicas: readonly App[];
  /** Replica `index` (0 is `app`); throws past the replicas asked for. */
  replica(index: number): App;
}

interface TestedApp {
  ready(): PromiseLike<unknown>;
  close(): PromiseLike<unknown>;
}

/**
 * Registers a beforeAll that makes the bed and an afterAll that removes it. What it returns reads the bed as made:
 * use it in tests, hooks and the helpers they call (reading it earlier throws).
 */
export function testBedPerFile(options: TestBedOptions = {}): TestBed {
  return bedPerFile(options, 0, async () => {
    throw new Error('a bed without a service builds no app');
  });
}

/**
 * A service under test for one file, made and removed like `testBedPerFile`: its database and stream, then
 * `replicas` (default 1) apps from `build`, given the service env (add the service's own keys to it). Closed in
 * reverse: bus, apps, stream, database.
 */
export function servicePerFile<App extends TestedApp>(
  build: (env: Record<string, string>) => Promise<App>,
  options: TestBedOptions & { replicas?: number } = {},
): ServiceTestBed<App> {
  return bedPerFile(options, options.replicas ?? 1, build);
}

function started<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the test bed's ${what} is made in beforeAll: read it inside tests, hooks and their helpers`);
  return value;
}

function bedPerFile<App extends TestedApp>(
  options: TestBedOptions,
  replicas: number,
  build: (env: Record<string, string>) => Promise<App>,
): ServiceTestBed<App> {
  let db: TestDatabase | undefined;
  let stream: TestStream | undefined;
  let env: Record<string, string> | undefined;
  let bus: EventBus | undefined;
  const apps: App[] = [];
  beforeAll(async () => {
    db = await createTestDatabase();
    stream = await createTestStream(options.natsServer?.());
    env = testServiceEnv(db, stream);
    for (let i = 0; i < replicas; i += 1) {
      const app = await build(env);
      apps.push(app);
      await app.ready();
    }
    if (options.bus) bus = await connectBus(stream.busSettings(options.bus));
  });
  afterAll(async () => {
    await bus?.nc.drain();
    for (const app of [...apps].reverse()) await app.close();
    if (!options.natsServer) await stream?.remove();
    await db?.drop();
  });
  return {
    get db() {
      return started(db, 'database');
    },
    get stream() {
      return started(stream, 'stream');
    },
    get env() {
      return started(env, 'env');
    },
    get bus() {
      return started(bus, options.bus ? 'bus' : 'bus (ask for one with the bus option)');
    },
    get app() {
      return started(apps[0], 'app');
    },
    get replicas() {
      return started(apps.length ? apps : undefined, 'replicas');
    },
    replica(index) {
      return started(apps[index], `replica ${index} (of the ${replicas} asked for)`);
    },
  };
}
