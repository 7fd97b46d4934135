import dns from 'node:dns';
import type { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { Agent, request } from 'undici';

/** Redirects followed by hand (each hop's address checked again), then the link counts as failing. */
export const MAX_REDIRECTS = 5;
/** A GET (when HEAD is refused) reads at most this much of the body, then the connection is dropped. */
const MAX_BODY_BYTES = 4096;

/** An address the checker must never connect to (private, loopback, link-local, ... after DNS resolution). */
export class RefusedAddressError extends Error {
  readonly code = 'LINK_ADDRESS_REFUSED';
  constructor(readonly address: string) {
    super(`refused: ${address} is not a public address`);
  }
}

export interface AddressPolicy {
  /**
   * TEST ONLY: networks (CIDR) let through although they are not public, so tests can point the checker at
   * servers on loopback. Never set from the environment: production has no way to widen the policy.
   */
  allowedNetworks?: string[];
}

type ParsedRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

function parseNetworks(networks: string[] | undefined): ParsedRange[] {
  return (networks ?? []).map((cidr) => ipaddr.parseCIDR(cidr));
}

/**
 * Only globally routable unicast addresses pass: ipaddr.js names every special range (private, loopback,
 * linkLocal, uniqueLocal, carrierGradeNat, multicast, unspecified, broadcast, reserved, 6to4, teredo, NAT64,
 * ...) and anything but `unicast` is refused. IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged as the IPv4 it carries.
 */
export function isAllowedAddress(address: string, allowed: ParsedRange[] = []): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (allowed.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits))) return true;
  return parsed.range() === 'unicast';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect that resolves the name itself and hands the socket only addresses that passed
 * the policy: the address checked is the address connected to (no window between check and connect). One bad
 * address among the answers refuses the name (a rebinding name mixing public and private answers).
 */
function guardedLookup(allowed: ParsedRange[]) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.find((entry) => !isAllowedAddress(entry.address, allowed));
      if (refused) return callback(new RefusedAddressError(refused.address), []);
      if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export interface LinkProberOptions extends AddressPolicy {
  userAgent: string;
  timeoutMs: number;
  /** Ports a link may use (default 80 and 443). */
  allowedPorts?: number[];
}

export type ProbeResult = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/**
 * Visits links the SSRF-safe way: http(s) only, allowed ports only, every hostname resolved by us and refused
 * unless public, redirects followed by hand (at most 5, each hop checked again), HEAD falling back to a GET that
 * reads a few KB, all within one timeout. One per process; `close()` ends its connections.
 */
export class LinkProber {
  private readonly allowed: ParsedRange[];
  private readonly agent: Agent;
  private readonly ports: Set<number>;

  constructor(private readonly options: LinkProberOptions) {
    this.allowed = parseNetworks(options.allowedNetworks);
    this.ports = new Set(options.allowedPorts ?? [80, 443]);
    this.agent = new Agent({
      connect: { lookup: guardedLookup(this.allowed), timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      // One probe per link per period: nothing to gain from keeping sockets open between rounds.
      keepAliveTimeout: 1000,
    });
  }

  /** Why this URL must not be fetched, or null when its scheme, port and (literal) address are acceptable. */
  private refusal(url: URL): string | null {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `refused: ${url.protocol} links are not checked`;
    if (url.username || url.password) return 'refused: credentials in the link';
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    if (!this.ports.has(port)) return `refused: port ${port}`;
    // A literal address never goes through lookup: judge it here (it cannot change before the connect).
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(host) && !isAllowedAddress(host, this.allowed)) return new RefusedAddressError(host).message;
    return null;
  }

  async probe(link: string): Promise<ProbeResult> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const head = await this.follow(link, 'HEAD', signal);
      if (head.ok) return head;
      // Many servers answer HEAD wrongly (405, 403, 404, 5xx) while serving GET fine: ask again the usual way.
      if (head.status === null || head.error.startsWith('refused') || head.error === 'too many redirects') return head;
      return await this.follow(link, 'GET', signal);
    } catch (error) {
      return { ok: false, status: null, error: describeFailure(error, this.options.timeoutMs) };
    }
  }

  private async follow(link: string, method: 'HEAD' | 'GET', signal: AbortSignal): Promise<ProbeResult> {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      return { ok: false, status: null, error: 'not a valid URL' };
    }
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      const refused = this.refusal(url);
      if (refused) return { ok: false, status: null, error: refused };
      const response = await request(url, {
        method,
        dispatcher: this.agent,
        signal,
        headers: { 'user-agent': this.options.userAgent, accept: 'text/html,*/*;q=0.8' },
      });
      if (method === 'GET') await readAtMost(response.body, MAX_BODY_BYTES);
      else await response.body.dump();
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && location) {
        url = new URL(Array.isArray(location) ? location[0]! : location, url);
        continue;
      }
      if (response.statusCode < 400) return { ok: true, status: response.statusCode };
      return { ok: false, status: response.statusCode, error: `HTTP ${response.statusCode}` };
    }
    return { ok: false, status: null, error: 'too many redirects' };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/** Reads up to `limit` bytes and drops the rest of the body (and the connection with it). */
async function readAtMost(body: AsyncIterable<Buffer> & { destroy(): void }, limit: number): Promise<void> {
  let read = 0;
  for await (const chunk of body) {
    read += chunk.length;
    if (read >= limit) break;
  }
  body.destroy();
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current && chain.length < 8; current = (current as { cause?: unknown }).cause) chain.push(current);
  return chain;
}

/** A failure in plain words for the owner and the admin (never a stack). */
export function describeFailure(error: unknown, timeoutMs: number): string {
  const chain = causes(error);
  const refused = chain.find((entry): entry is RefusedAddressError => entry instanceof RefusedAddressError);
  if (refused) return refused.message;
  const named = chain.find((entry) => entry instanceof Error && (entry.name === 'TimeoutError' || entry.name === 'AbortError'));
  const code = chain.map((entry) => (entry as { code?: unknown }).code).find((value): value is string => typeof value === 'string');
  if (named || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `timed out after ${Math.round(timeoutMs / 100) / 10} s`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the name does not resolve';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset';
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) return 'TLS certificate problem';
  return code ? `network error (${code})` : 'network error';
}
