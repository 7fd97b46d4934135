import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';

/** What the web app's server bundle (`web/dist-server/entry-server.js`) exports for the gateway. */
export interface ServerRenderer {
  /** The API answers a path's page needs, as the app would fetch them; null when the path is not server-rendered. */
  pageQueries(pathname: string, search: string): Array<{ queryKey: readonly unknown[]; path: string }> | null;
  /**
   * The app's own components rendered at `url` (absolute: its origin goes into structured data) with those answers:
   * #root's inner HTML, the dehydrated query state (JSON), and what the screen says (its status, title, description).
   */
  renderPage(url: string, data: { queries: ServerPageQuery[] }, options?: { outboundLinkRel?: string }): Promise<ServerRenderedPage>;
}

/** One API answer handed to the render: its JSON body, or the status it failed with. */
export interface ServerPageQuery {
  queryKey: readonly unknown[];
  data?: unknown;
  error?: { status: number; body?: string };
}

export interface ServerRenderedPage {
  html: string;
  state: string;
  /** 200; 404 for a screen that says "not found"; 503 when the page's own resource could not be loaded. */
  status?: number;
  title?: string;
  description?: string;
}

/** The server bundle's place: `dist-server/` beside the web app's `dist/`. */
export function serverRendererFile(webDistDir: string): string {
  return path.join(path.dirname(path.resolve(webDistDir)), 'dist-server', 'entry-server.js');
}

/**
 * Loads the server bundle once, at start. Without it (the web app not built for the server) pages still get their
 * head tags and the app renders them in the browser: a missing bundle degrades the pages, it does not break them.
 */
export async function loadServerRenderer(webDistDir: string, log: FastifyBaseLogger): Promise<ServerRenderer | null> {
  const file = serverRendererFile(webDistDir);
  if (!existsSync(file)) {
    log.warn({ file }, 'no server bundle of the web app: pages are sent without their body (run `npm run build -w @pixel-atlas/web`)');
    return null;
  }
  try {
    const bundle = (await import(pathToFileURL(file).href)) as Partial<ServerRenderer>;
    if (typeof bundle.pageQueries !== 'function' || typeof bundle.renderPage !== 'function') {
      log.error({ file }, 'the server bundle of the web app lacks pageQueries or renderPage: pages are sent without their body');
      return null;
    }
    return { pageQueries: bundle.pageQueries, renderPage: bundle.renderPage };
  } catch (error) {
    log.error({ err: error, file }, 'the server bundle of the web app failed to load: pages are sent without their body');
    return null;
  }
}
