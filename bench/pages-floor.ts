/**
 * The floor of `npm run bench:pages`: a bare `node:http` server, in its own process, answering each page with the exact
 * status, headers and body bytes the gateway sent for it (fetched once), from memory. Nothing is computed per request:
 * what the gateway costs beyond this is its own work.
 *
 *   node --import tsx bench/pages-floor.ts <answers.json>   → prints {"port":N} once listening
 *
 * answers.json: Array<{ path, status, headers: Record<string, string>, body: base64 }>.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';

export interface FloorAnswer {
  path: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Per connection or per message, never per document: the server writes its own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'content-length']);

const file = process.argv[2];
if (!file) throw new Error('usage: pages-floor.ts <answers.json>');
const answers = new Map(
  (JSON.parse(readFileSync(file, 'utf8')) as FloorAnswer[]).map((answer) => {
    const body = Buffer.from(answer.body, 'base64');
    const headers = Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase()));
    headers.push(['content-length', String(body.length)]);
    return [answer.path, { status: answer.status, headers: headers.flat(), body }];
  }),
);

const server = http.createServer((request, response) => {
  const answer = answers.get(request.url ?? '');
  if (!answer) {
    response.writeHead(404, { 'content-length': '0' }).end();
    return;
  }
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
