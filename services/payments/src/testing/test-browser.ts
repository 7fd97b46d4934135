import { startCheckout, viaGateway, type World } from '@pixel-atlas/test-stack/world';
import type { LightMyRequestResponse } from 'fastify';

/**
 * One buyer's browser in a payments test: its address (as the gateway passes it) and its cookie jar, which keeps the
 * checkout cookie the service sets and sends it back, as a browser does. Two of them on one address are two people.
 */
export class TestBrowser {
  /** The `name=value` pairs this browser sends (what the server set, as the browser would keep them). */
  readonly jar = new Map<string, string>();

  constructor(
    private readonly world: World,
    readonly ip: string,
  ) {}

  get cookieHeader(): string | undefined {
    return this.jar.size ? [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ') : undefined;
  }

  async startCheckout(body: Parameters<typeof startCheckout>[1]): Promise<LightMyRequestResponse> {
    const headers = viaGateway(this.ip);
    if (this.cookieHeader) headers.cookie = this.cookieHeader;
    const response = await this.world.payments.inject({ method: 'POST', url: '/api/create-checkout-session', payload: body, headers });
    for (const line of [response.headers['set-cookie'] ?? []].flat()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return response;
  }
}
