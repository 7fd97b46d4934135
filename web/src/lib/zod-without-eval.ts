/**
 * The site's Content-Security-Policy has no 'unsafe-eval'. zod 4 compiles object parsers with `new Function`
 * unless told not to, and probes for it the first time an object schema is built: under our CSP that probe is a
 * reported violation (a console error, and Lighthouse's Best Practices counts it) before zod falls back. The web
 * tells zod up front to stay interpreted. Imported first by main.tsx, before any chunk that builds a schema.
 * Services keep the compiled parsers (no CSP there).
 */
import { config } from 'zod/v4/core';

config({ jitless: true });
