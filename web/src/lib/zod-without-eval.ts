/**
 * The site's Content-Security-Policy has no 'unsafe-eval'. zod 4 compiles object parsers with `new Function`
 * unless told not to, and probes for it the first time an object schema is built: under our CSP that probe is a
 * reported violation (a console error, and Lighthouse's Best Practices counts it) before zod falls back. The web
 * tells zod up front to stay interpreted. Imported first by main.tsx, before any chunk that builds a schema.
 * Services keep the compiled parsers (no CSP there).
 *
 * zod keeps its settings on `globalThis.__zod_globalConfig` (shared by every copy of zod in a page); writing it
 * here, rather than calling zod's `config()`, keeps zod itself out of the first paint's JavaScript (10 KB raw).
 * zod-without-eval.test.ts checks that zod reads it.
 */
type ZodGlobalConfig = { jitless?: boolean };

const host = globalThis as { __zod_globalConfig?: ZodGlobalConfig };
// The same object zod holds, whichever of the two ran first.
host.__zod_globalConfig ??= {};
host.__zod_globalConfig.jitless = true;

// A module (imported for its effect), so the test can import it.
export {};
