// Testing only (its packages are devDependencies): compares what a service's migrations build with its schema.prisma.
// Prisma's native schema engine cannot be downloaded on these machines, so this drives the wasm build of the same
// engine (`@prisma/schema-engine-wasm`, the build matching Prisma 7.10.0) through `@prisma/adapter-pg`.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  ColumnTypeEnum,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';
import * as engineGlue from '@prisma/schema-engine-wasm/schema_engine_bg';
import pg from 'pg';

const require = createRequire(import.meta.url);

/** The slice of the WebAssembly global used here (this repo's tsconfig has no DOM lib, @types/node 20 no wasm). */
interface WasmApi {
  instantiate(
    bytes: Uint8Array,
    imports: Record<string, Record<string, unknown>>,
  ): Promise<{ instance: { exports: Record<string, unknown> } }>;
}
const { WebAssembly: wasmApi } = globalThis as unknown as { WebAssembly: WasmApi };

let wasmReady: Promise<void> | undefined;

/** Loads the engine once per process, without `--experimental-wasm-modules` (its own entry imports a .wasm file). */
function initWasm(): Promise<void> {
  wasmReady ??= (async () => {
    // The engine reports a Rust panic through this global before it traps ("RuntimeError: unreachable").
    const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown };
    g.PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (message: string) => console.error(`[schema-engine panic] ${message}`) };
    const dir = path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
    const bytes = await readFile(path.join(dir, 'schema_engine_bg.wasm'));
    // The engine arms 10 s timers (its advisory-lock timeout) it never clears: unref them so a test worker can exit.
    const imports: Record<string, unknown> = { ...engineGlue };
    for (const [name, fn] of Object.entries(engineGlue)) {
      if (!name.startsWith('__wbg_setTimeout_') || typeof fn !== 'function') continue;
      imports[name] = (...args: unknown[]) => {
        const timer = (fn as (...a: unknown[]) => unknown)(...args) as NodeJS.Timeout | undefined;
        timer?.unref?.();
        return timer;
      };
    }
    const { instance } = await wasmApi.instantiate(bytes, { './schema_engine_bg.js': imports });
    (engineGlue as unknown as { __wbg_set_wasm(exports: unknown): void }).__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start(): void }).__wbindgen_start();
  })();
  return wasmReady;
}

// ---- Workarounds for @prisma/adapter-pg 7.10.0 driven by the schema engine (PrismaClient never meets these) ----
// (1) PostgreSQL's internal type "char" (OID 18, e.g. pg_constraint.contype) makes the adapter fail ("Column type
//     'char' could not be deserialized"). At the pg level it is relabelled text (OID 25) so the adapter accepts it;
//     which columns they were is remembered by SQL text and reported to the engine as Character, which it expects.
// (2) The adapter's executeScript() splits on ';' (breaking $$ bodies and ';' inside strings) and runs the pieces on
//     any pool connection; the whole script runs as one simple query instead, as the native engine does.
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;
const charColumnsBySql = new Map<string, number[]>();

interface PgFields {
  fields?: { dataTypeID: number }[];
}

function relabelCharColumns(sql: string | undefined, result: unknown): unknown {
  for (const set of (Array.isArray(result) ? result : [result]) as (PgFields | undefined)[]) {
    const indexes: number[] = [];
    set?.fields?.forEach((field, i) => {
      if (field.dataTypeID !== PG_CHAR_OID) return;
      field.dataTypeID = PG_TEXT_OID;
      indexes.push(i);
    });
    if (indexes.length && sql) charColumnsBySql.set(sql, indexes);
  }
  return result;
}

type QueryFn = (...args: unknown[]) => unknown;

function withCharColumnsRelabelled(pool: pg.Pool): pg.Pool {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as QueryFn;
    (client as unknown as { query: QueryFn }).query = (...args) => {
      const first = args[0];
      const sql = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
      const callback = args.at(-1);
      if (typeof callback === 'function') {
        args[args.length - 1] = (error: unknown, result: unknown) => callback(error, error ? result : relabelCharColumns(sql, result));
      }
      const returned = query(...args);
      return returned instanceof Promise ? returned.then((result: unknown) => relabelCharColumns(sql, result)) : returned;
    };
  });
  return pool;
}

interface AdapterQueryable {
  queryRaw(query: { sql: string }): Promise<{ columnTypes: number[] }>;
  executeScript?(script: string): Promise<void>;
  startTransaction?(...args: unknown[]): Promise<AdapterQueryable>;
  onError(error: unknown): never;
}

function patchQueryable<Q>(queryable: Q, pool: pg.Pool): Q {
  const q = queryable as unknown as AdapterQueryable;
  const queryRaw = q.queryRaw.bind(q);
  q.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const i of charColumnsBySql.get(query.sql) ?? []) result.columnTypes[i] = ColumnTypeEnum.Character;
    return result;
  };
  if (q.executeScript) {
    q.executeScript = async (script) => {
      try {
        await pool.query(script);
      } catch (error) {
        q.onError(error); // throws the adapter's DriverAdapterError, which the engine understands
      }
    };
  }
  const startTransaction = q.startTransaction?.bind(q);
  if (startTransaction) q.startTransaction = async (...args) => patchQueryable(await startTransaction(...args), pool);
  return queryable;
}

/** Discrete fields rather than a connection string, which pg would let override any `database` given beside it. */
function pgConfig(url: string): pg.PoolConfig {
  const u = new URL(url);
  return {
    host: decodeURIComponent(u.hostname),
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password) || undefined,
    database: decodeURIComponent(u.pathname.slice(1)),
    max: 2,
  };
}

/** Driver errors are parked in the adapter's error registry; the engine's error carries only their id. */
function unwrapError(adapter: unknown, error: unknown): unknown {
  const e = error as { id?: unknown; cause?: { id?: unknown }; message?: string };
  const id = e?.id ?? e?.cause?.id;
  const registry = (adapter as { errorRegistry: { consumeError(id: number): { error: { message?: string } } | undefined } }).errorRegistry;
  const inner = typeof id === 'number' ? registry.consumeError(id)?.error : undefined;
  if (!inner) return error;
  return new Error(`${e.message}\n  caused by: ${inner.message ?? JSON.stringify(inner)}`, { cause: inner });
}

export interface SchemaDriftOptions {
  /** A database the service's migrations were applied to by `migrate()`. */
  databaseUrl: string;
  /** The service's own PostgreSQL schema in it (what `migrate()` was given): only that schema is compared. */
  schema: string;
  /** The service's `prisma/schema.prisma`. */
  schemaPath: string;
}

/**
 * The SQL that would turn the database's `schema` (as the service's migrations left it) into what schema.prisma
 * declares: '' when they agree. Objects Prisma cannot express (exclusion constraints, triggers, functions) are not
 * compared.
 */
export async function schemaDrift(options: SchemaDriftOptions): Promise<string> {
  await initWasm();
  const datamodel = await readFile(options.schemaPath, 'utf8');
  const files = [{ path: options.schemaPath, content: datamodel }];
  const pool = withCharColumnsRelabelled(new pg.Pool(pgConfig(options.databaseUrl)));
  // `schema` is what the adapter reports as its connection's schema: the engine introspects that one alone.
  const base = new PrismaPg(pool, { schema: options.schema });
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: async () => patchQueryable(await base.connect(), pool),
    // A database against a datamodel needs no shadow database; fail loudly rather than use the adapter's, which drops
    // the shadow database while its pool still holds connections to it.
    connectToShadowDb: () => Promise.reject(new Error('schemaDrift() needs no shadow database')),
  };
  const adapter = bindMigrationAwareSqlAdapterFactory(factory);
  let engine: SchemaEngine | undefined;
  try {
    engine = await engineGlue.SchemaEngine.new({ datamodels: [[options.schemaPath, datamodel]] }, () => undefined, adapter);
    const result = await engine.diff({
      from: { tag: 'schemaDatasource', files, configDir: path.dirname(options.schemaPath) },
      to: { tag: 'schemaDatamodel', files },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    return emptyWhenNoChange(result.stdout ?? '');
  } catch (error) {
    throw unwrapError(adapter, error);
  } finally {
    engine?.free();
    await pool.end();
  }
}

/** The engine writes a comment, not nothing, when there is nothing to do. */
function emptyWhenNoChange(script: string): string {
  return script.trim() === '-- This is an empty migration.' ? '' : script.trim();
}
