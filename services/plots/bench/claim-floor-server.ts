/**
 * The floor under a claim on this machine: a bare node:http server that takes the claim's JSON body (avatar data URL
 * included), decodes the avatar, optionally re-encodes it exactly as a claim does (FLOOR_AVATAR=1, the product's
 * processAvatar), and stores the row with one prepared INSERT, durably committed, then answers 201. No framework,
 * no validation, no events: what any claim costs at the least. Started by bench:claims beside the real stack.
 *
 *   DATABASE_URL=… FLOOR_TABLE=… PORT=… node --import tsx services/plots/bench/claim-floor-server.ts
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { processAvatar } from '../src/domain/process-avatar.ts';

const table = process.env.FLOOR_TABLE ?? 'claim_floor';
if (!/^[a-z_]+$/.test(table)) throw new Error('FLOOR_TABLE: lower-case letters and _ only');
const reencode = process.env.FLOOR_AVATAR === '1';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
await pool.query(
  `CREATE TABLE IF NOT EXISTS public.${table} (id uuid PRIMARY KEY, x int NOT NULL, y int NOT NULL, name text NOT NULL, avatar bytea NOT NULL)`,
);
const insert = { name: `floor_insert_${table}`, text: `INSERT INTO public.${table} (id, x, y, name, avatar) VALUES ($1, $2, $3, $4, $5)` };

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    void (async () => {
      try {
        const claim = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          x: number;
          y: number;
          display_name: string;
          avatar_url: string;
        };
        const avatar = reencode
          ? await processAvatar({ dataUrl: claim.avatar_url, maxInputPixels: 4_000_000 })
          : Buffer.from(claim.avatar_url.slice(claim.avatar_url.indexOf(',') + 1), 'base64');
        const id = randomUUID();
        await pool.query({ ...insert, values: [id, claim.x, claim.y, claim.display_name, avatar] });
        response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ plot: { id, x: claim.x, y: claim.y } }));
      } catch (error) {
        response.writeHead(500).end(String(error));
      }
    })();
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
