import type { RegionList, RegionPage } from '@pixel-atlas/contracts/directory';
import type { Plot } from '@pixel-atlas/contracts/plots';
import type { FastifyBaseLogger } from 'fastify';
import type { DocumentDraft } from './rendered-document-cache.ts';
import {
  NOT_FOUND_BODY,
  notFoundPageMeta,
  plotPageMeta,
  regionPageMeta,
  regionsPageMeta,
  renderShell,
  userPageMeta,
  type MetaOptions,
  type PageBody,
  type PageMeta,
  type ShellTemplate,
} from './render-share-page.ts';
import type { ServerPageQuery, ServerRenderedPage, ServerRenderer } from './server-renderer.ts';

/** The server-rendered pages, each named by what its address says (already checked and normalised). */
export type SharePage =
  { kind: 'plot'; id: string } | { kind: 'user'; name: string } | { kind: 'regions' } | { kind: 'region'; slug: string; page: number };

/** An API answer: its status, and its JSON body when it was 200. */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

export interface RenderSharePageOptions {
  page: SharePage;
  /** GETs an API path from its service (status 503 when it could not be asked). */
  fetchApi: (path: string) => Promise<ApiAnswer>;
  renderer: ServerRenderer | null;
  shell: { html: string; template: ShellTemplate };
  meta: MetaOptions;
  /** rel of the plots' outbound links (OUTBOUND_LINK_REL), for the app's render. */
  outboundLinkRel: string;
  cacheControl: string;
  log: FastifyBaseLogger;
}

/** The page's address as the app routes it: only the parts that select its content (`page` past 1). */
export function sharePageUrl(page: SharePage): { pathname: string; search: string } {
  switch (page.kind) {
    case 'plot':
      return { pathname: `/plot/${page.id}`, search: '' };
    case 'user':
      return { pathname: `/user/${encodeURIComponent(page.name)}`, search: '' };
    case 'regions':
      return { pathname: '/regions', search: '' };
    case 'region':
      return { pathname: `/regions/${encodeURIComponent(page.slug)}`, search: page.page > 1 ? `?page=${page.page}` : '' };
  }
}

/** The API answer the page's head tags are written from (the app's queries may ask for more). */
function primaryPath(page: SharePage): string {
  switch (page.kind) {
    case 'plot':
      return `/api/plots/${encodeURIComponent(page.id)}`;
    case 'user':
      return `/api/users/${encodeURIComponent(page.name)}/plots`;
    case 'regions':
      return '/api/regions';
    case 'region':
      return `/api/regions/${encodeURIComponent(page.slug)}?page=${page.page}`;
  }
}

function pageMeta(page: SharePage, body: unknown, options: MetaOptions): PageMeta {
  switch (page.kind) {
    case 'plot':
      return plotPageMeta(body as Plot, options);
    case 'user':
      return userPageMeta(page.name, (body as { plots: Plot[] }).plots, options);
    case 'regions':
      return regionsPageMeta(body as RegionList, options);
    case 'region':
      return regionPageMeta(body as RegionPage, options);
  }
}

/** The page's data, named by the service's answers: a page (200), nothing there (404), or no answer (503). */
function outcome(page: SharePage, primary: ApiAnswer, all: ApiAnswer[]): 200 | 404 | 503 {
  if (all.some((a) => a.status !== 200 && a.status !== 404 && a.status !== 400)) return 503;
  // Nobody by that name has claimed yet: still their (empty) page, as the app shows it.
  if (page.kind === 'user') return 200;
  return primary.status === 200 ? 200 : 404;
}

/**
 * One page as the gateway serves it: the shell's head tags written from the page's data, and #root filled by the web
 * app's own components (its server bundle) with the same API answers the app would fetch, handed to it as state to
 * hydrate from. A page whose data is not there (404/400 from the service) is the not-found page, kept until the next
 * change; a service that cannot answer, or a render that fails, gets a page kept for no time (the app renders it in the
 * browser, and the next request tries again).
 */
export async function renderSharePageDocument(options: RenderSharePageOptions): Promise<DocumentDraft> {
  const { page, renderer, shell, log } = options;
  const { pathname, search } = sharePageUrl(page);
  let queries: Array<{ queryKey: readonly unknown[]; path: string }> = [];
  try {
    queries = renderer?.pageQueries(pathname, search) ?? [];
  } catch (error) {
    log.error({ err: error, pathname }, 'the server bundle could not name the queries of a page');
  }
  const primaryAt = primaryPath(page);
  const paths = [...new Set([primaryAt, ...queries.map((q) => q.path)])];
  const answers = new Map(await Promise.all(paths.map(async (path) => [path, await options.fetchApi(path)] as const)));
  const primary = answers.get(primaryAt)!;
  const html = (status: number, body: string, keepMs?: number): DocumentDraft => ({
    status,
    contentType: 'text/html; charset=utf-8',
    body,
    cacheControl: keepMs === 0 ? 'no-cache' : options.cacheControl,
    keepMs,
  });
  let status = outcome(page, primary, [...answers.values()]);
  if (status === 503) return html(200, shell.html, 0);

  let rendered: ServerRenderedPage | undefined;
  if (renderer && queries.length) {
    const data = {
      queries: queries.map(({ queryKey, path }): ServerPageQuery => {
        const answer = answers.get(path)!;
        return answer.status === 200 ? { queryKey, data: answer.body } : { queryKey, error: { status: answer.status } };
      }),
    };
    try {
      rendered = await renderer.renderPage(new URL(`${pathname}${search}`, options.meta.origin).href, data, {
        outboundLinkRel: options.outboundLinkRel,
      });
    } catch (error) {
      log.error({ err: error, pathname }, 'the server render of a page failed');
    }
    if (rendered?.status === 404 || rendered?.status === 503) status = rendered.status;
  }
  if (status === 503) return html(200, shell.html, 0);
  const siteName = options.meta.siteName;
  const body: PageBody | undefined = rendered && { html: rendered.html, state: rendered.state };
  if (status === 404) {
    // Removed, hidden, unknown, past the last page: a real 404 for crawlers, out of search results.
    return html(404, renderShell(shell.template, notFoundPageMeta(options.meta), siteName, body ?? NOT_FOUND_BODY));
  }
  const meta = pageMeta(page, primary.status === 200 ? primary.body : { plots: [] }, options.meta);
  // The screen's own title and description when it set them: the browser shows the same ones after hydrating.
  if (rendered?.title) meta.title = rendered.title;
  if (rendered?.description) meta.description = rendered.description;
  // A failed render still sends the head tags (the app renders the body in the browser), but is not kept.
  return html(200, renderShell(shell.template, meta, siteName, body), renderer && queries.length && !rendered ? 0 : undefined);
}
