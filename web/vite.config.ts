import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { build, defineConfig, type Plugin } from 'vite';

// ARCHITECTURE.md names the setting SITE_NAME; Vite only exposes VITE_* variables to the client,
// so SITE_NAME is forwarded when VITE_SITE_NAME is not set explicitly.
const forwardedSiteName =
  process.env.VITE_SITE_NAME === undefined && process.env.SITE_NAME
    ? { 'import.meta.env.VITE_SITE_NAME': JSON.stringify(process.env.SITE_NAME) }
    : {};

/** Where the shell goes in index.html; `<div id="root"></div>` itself stays empty (the gateway's share pages fill it). */
const SHELL_MARKER = '<!--app-shell-->';
const SHELL_CONTAINER = '<div id="app-shell">';
/** Any path that is not a screen of its own: it renders the layout with an empty, waiting <main>. */
const GENERIC_SHELL_PATH = '/__app-shell';

/** The server renderer (src/entry-server.tsx), built beside dist for the gateway: web/dist-server/entry-server.js. */
const SERVER_ENTRY = 'src/entry-server.tsx';
const SERVER_OUT_DIR = 'dist-server';

/**
 * After the client build: src/entry-server.tsx bundled for Node into dist-server/entry-server.js, one ES module with
 * every dependency inside (React, the router, the app: nothing to resolve at run time, only node: built-ins), which the
 * gateway imports to render /plot/:id, /user/:name and the region pages per request. The build then uses the same
 * bundle for the first screen rendered by the app's own components, written into dist/index.html (the home screen:
 * header, the strip over the map, the claim section, footer), dist/screens/<name>.html for the screens without data
 * (about, faq, terms, privacy: whole) and dist/app.html (header and footer around an empty main, which the gateway
 * serves for the other screens). The CSS goes inline (one small file; no render-blocking request) and the pixel font
 * is preloaded.
 */
function prerenderShell(): Plugin {
  let root = '';
  let outDir = '';
  let ssrBuild = false;
  let boot: BootChunk | null = null;
  return {
    name: 'pixel-atlas:prerender-shell',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      ssrBuild = Boolean(config.build.ssr);
    },
    generateBundle(_options, bundle) {
      boot = null;
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk' && chunk.isEntry && chunk.name === BOOT_ENTRY_NAME)
          boot = { file: chunk.fileName, imports: chunk.imports };
      }
    },
    async closeBundle() {
      if (ssrBuild) return;
      // Beside the client build: web/dist-server for web/dist; for a build into a temporary folder (scripts/lib/workspace.ts
      // builds into web/.dist-<pid>-<time>, then swaps it in) <that folder>-server, swapped in with it, so a build running
      // at the same time never mixes its server bundle with another build's client files.
      const serverOut = path.basename(outDir) === 'dist' ? path.join(path.dirname(outDir), SERVER_OUT_DIR) : `${outDir}-server`;
      await build({
        configFile: false,
        root,
        logLevel: 'warn',
        plugins: [react()],
        // The browser bundle is always React's production build: the server's must be too, whatever NODE_ENV the
        // gateway runs with (development markup would differ, and render several times slower).
        define: { ...forwardedSiteName, 'process.env.NODE_ENV': JSON.stringify('production') },
        ssr: { noExternal: true, target: 'node' },
        publicDir: false,
        build: {
          ssr: SERVER_ENTRY,
          outDir: serverOut,
          emptyOutDir: true,
          sourcemap: false,
          minify: false,
          // One file: the screens' dynamic imports are inlined (the server preloads them before rendering anyway). No
          // comments: the libraries' JSDoc examples only look like imports to anyone checking the file for bare ones.
          rolldownOptions: { output: { codeSplitting: false, comments: false, entryFileNames: 'entry-server.js' } },
        },
      });
      // A fresh URL per build: an import of the same URL would be the module from an earlier build in this process.
      const entry = pathToFileURL(path.join(serverOut, 'entry-server.js'));
      entry.search = `?build=${Date.now()}`;
      const { renderShell, PRERENDERED_SCREEN_PATHS } = (await import(entry.href)) as {
        renderShell(pathname: string): Promise<string>;
        PRERENDERED_SCREEN_PATHS: string[];
      };
      const builtIndex = readFileSync(path.join(outDir, 'index.html'), 'utf8');
      const inlinedCss = [...builtIndex.matchAll(STYLESHEET_LINK)].map((match) => match[1]!);
      const template = inlineCssAndPreloadFont(builtIndex, outDir);
      if (!template.includes(SHELL_CONTAINER + SHELL_MARKER))
        throw new Error(`prerender: index.html has no ${SHELL_CONTAINER}${SHELL_MARKER}`);
      // data-path says which path the shell was rendered for: main.tsx hydrates it only there.
      const withShell = async (pathname: string) => {
        const html = await renderShell(pathname);
        return template.replace(SHELL_CONTAINER, () => `<div id="app-shell" data-path="${pathname}">`).replace(SHELL_MARKER, () => html);
      };
      if (!boot) throw new Error(`prerender: the build has no ${BOOT_ENTRY_NAME} entry`);
      writeFileSync(path.join(outDir, 'index.html'), withBootInsteadOfApp(await withShell('/'), boot, inlinedCss));
      writeFileSync(path.join(outDir, 'app.html'), await withShell(GENERIC_SHELL_PATH));
      // Screens without data of their own, whole (the gateway serves screens/<name>.html for /<name>).
      mkdirSync(path.join(outDir, 'screens'), { recursive: true });
      for (const pathname of PRERENDERED_SCREEN_PATHS) {
        writeFileSync(path.join(outDir, 'screens', `${pathname.slice(1)}.html`), await withShell(pathname));
      }
    },
  };
}

/** The home page's own entry (src/boot.ts): it draws the map, then loads the app. */
const BOOT_ENTRY_NAME = 'boot';
interface BootChunk {
  file: string;
  imports: string[];
}

/**
 * The home page (dist/index.html) runs the boot entry instead of the app's: its script tag, with the boot's own chunks
 * preloaded in place of the app's, so no byte of React is fetched before the map's first frame (src/boot.ts loads the
 * app after it). The other pages keep the app's entry.
 */
function withBootInsteadOfApp(html: string, boot: BootChunk, inlinedCss: string[]): string {
  const appScript = /<script type="module" crossorigin src="\/assets\/[^"]+\.js"><\/script>/;
  if (!appScript.test(html)) throw new Error('prerender: index.html has no module script to replace with the boot');
  const preloads = boot.imports.map((file) => `\n    <link rel="modulepreload" crossorigin href="/${file}">`).join('');
  // The app's CSS is inline already; Vite's loader, importing the app from the boot, would fetch and apply it again
  // unless a stylesheet link to it is on the page. Disabled, this one is never fetched.
  const cssMarkers = inlinedCss.map((href) => `\n    <link rel="stylesheet" href="${href}" disabled>`).join('');
  return html
    .replace(/\s*<link rel="modulepreload" crossorigin href="[^"]+">/g, '')
    .replace(appScript, () => `<script type="module" crossorigin src="/${boot.file}"></script>${preloads}${cssMarkers}`);
}

const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g;

function inlineCssAndPreloadFont(html: string, outDir: string): string {
  let out = html.replace(STYLESHEET_LINK, (_tag, href: string) => {
    const css = readFileSync(path.join(outDir, href), 'utf8');
    return `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`;
  });
  const font = readdirSync(path.join(outDir, 'assets')).find((name) => /^press-start-2p-latin-400-normal-.*\.woff2$/.test(name));
  if (font) {
    out = out.replace('</head>', `  <link rel="preload" href="/assets/${font}" as="font" type="font/woff2" crossorigin>\n  </head>`);
  }
  return out;
}

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|map|txt|xml|webmanifest)$/;
/** Smaller files gain too little to be worth a second request-path lookup. */
const MIN_COMPRESS_BYTES = 1024;

/**
 * Brotli and gzip copies of every text file, made once at build time at the highest levels (too slow per request);
 * the gateway serves them with @fastify/static's `preCompressed`. Runs after the prerender rewrote the HTML.
 */
function precompress(): Plugin {
  let outDir = '';
  let ssrBuild = false;
  return {
    name: 'pixel-atlas:precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      ssrBuild = Boolean(config.build.ssr);
    },
    closeBundle: {
      order: 'post',
      // closeBundle hooks run in parallel unless told otherwise: the prerender must have written the HTML first.
      sequential: true,
      handler() {
        if (ssrBuild) return;
        const walk = (dir: string): string[] =>
          readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
            entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
          );
        for (const file of walk(outDir)) {
          if (!COMPRESSIBLE.test(file) || statSync(file).size < MIN_COMPRESS_BYTES) continue;
          const data = readFileSync(file);
          // Source maps are megabytes that only developer tools fetch: a fast level is plenty for them.
          const sourceMap = file.endsWith('.map');
          writeFileSync(
            `${file}.br`,
            brotliCompressSync(data, {
              params: {
                [zlibConstants.BROTLI_PARAM_QUALITY]: sourceMap ? 5 : zlibConstants.BROTLI_MAX_QUALITY,
                [zlibConstants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
          );
          writeFileSync(`${file}.gz`, gzipSync(data, { level: sourceMap ? 6 : zlibConstants.Z_BEST_COMPRESSION }));
        }
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), prerenderShell(), precompress()],
  define: forwardedSiteName,
  build: {
    // Shipped (and served by the gateway) so errors from the field map back to the source.
    sourcemap: true,
    rolldownOptions: {
      input: {
        index: path.resolve(import.meta.dirname, 'index.html'),
        [BOOT_ENTRY_NAME]: path.resolve(import.meta.dirname, 'src/boot.ts'),
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false },
    },
  },
});
