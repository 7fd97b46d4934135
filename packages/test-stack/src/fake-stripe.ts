import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import qs from 'qs';

/**
 * A local fake of the slice of Stripe's HTTP API the payments service uses (Checkout Sessions), so tests
 * drive the real `stripe` SDK: form-encoded bracketed bodies in, Stripe-shaped JSON out, Stripe-shaped
 * errors (`{error: {type, code, message, param}}`), Idempotency-Key replay. Test hooks mark sessions paid,
 * expired, or paid with a wrong amount, and can make the next create fail.
 */
export interface FakeCheckoutSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  amount_total: number;
  amount_subtotal: number;
  currency: string;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  url: string | null;
  expires_at: number;
  created: number;
  livemode: false;
  /** What the create call passed (Stripe prefills its e-mail field with it); null when none. */
  customer_email: string | null;
  /** Filled in when the buyer completes the page (Stripe always asks for an e-mail in payment mode); null before. */
  customer_details: { email: string | null; name: string | null } | null;
  line_items_input: unknown;
}

export interface FakeStripe {
  app: FastifyInstance;
  host: string;
  port: number;
  sessions: Map<string, FakeCheckoutSession>;
  /** Every API call the SDK made: method, path. */
  calls: Array<{ method: string; path: string; idempotencyKey?: string }>;
  /** The next N creates answer with this error (status, type, code, message). */
  failNextCreates(count: number, error?: { status: number; type: string; code: string; message: string }): void;
  /**
   * As if the buyer paid on Stripe's page, typing `email` in its e-mail field (default: the create call's
   * customer_email, else a made-up buyer address); override the amount/currency/payment_status to fake a tampered or
   * unpaid session.
   */
  complete(
    id: string,
    overrides?: Partial<Pick<FakeCheckoutSession, 'amount_total' | 'currency' | 'payment_status'>> & { email?: string },
  ): FakeCheckoutSession;
  expire(id: string): FakeCheckoutSession;
  /** A Stripe event object around the session's current state, as a webhook would deliver it. */
  event(type: string, id: string): Record<string, unknown>;
  close(): Promise<void>;
}

function stripeError(status: number, type: string, code: string, message: string, param?: string) {
  return { status, body: { error: { type, code, message, param } } };
}

const noSuchSession = (id: string) =>
  stripeError(404, 'invalid_request_error', 'resource_missing', `No such checkout.session: '${id}'`, 'session');

function sendStripeResult(reply: FastifyReply, result: { status: number; body: unknown }) {
  return reply.status(result.status).send(result.body);
}

export const STRIPE_TEST_KEY = 'sk_test_pixelatlas_0123456789';
export const STRIPE_WEBHOOK_SECRET = 'whsec_test_pixelatlas_0123456789';

/** Payments' environment for the real Stripe SDK talking to this fake. */
export function fakeStripeEnv(fake: Pick<FakeStripe, 'host' | 'port'>): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: STRIPE_TEST_KEY,
    STRIPE_WEBHOOK_SECRET,
    STRIPE_API_HOST: fake.host,
    STRIPE_API_PORT: String(fake.port),
    STRIPE_API_PROTOCOL: 'http',
  };
}

type StripeResult = { status: number; body: unknown };
type StripeFailure = { status: number; type: string; code: string; message: string };

/** What the fake remembers between calls, shared by its routes and the test hooks. */
interface FakeStripeState {
  sessions: Map<string, FakeCheckoutSession>;
  /** Answers by Idempotency-Key: a retried create gets the first answer again, as from Stripe. */
  idempotent: Map<string, StripeResult>;
  calls: FakeStripe['calls'];
  /** Errors the next creates answer with, one each. */
  failures: StripeFailure[];
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const app = Fastify({ logger: false });
  const state: FakeStripeState = { sessions: new Map(), idempotent: new Map(), calls: [], failures: [] };
  const { sessions, calls } = state;

  stripeWireFormat(app, calls);
  checkoutSessionRoutes(app, state);

  const get = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`fake stripe: no session ${id}`);
    return session;
  };
  const complete: FakeStripe['complete'] = (id, overrides = {}) => {
    const session = get(id);
    const { email, ...rest } = overrides;
    const address = email ?? session.customer_email ?? `buyer-${id.slice(-8).toLowerCase()}@example.com`;
    Object.assign(session, { status: 'complete', payment_status: 'paid', customer_details: { email: address, name: null } }, rest);
    return session;
  };
  const expire: FakeStripe['expire'] = (id) => {
    const session = get(id);
    Object.assign(session, { status: 'expired', payment_status: 'unpaid' });
    return session;
  };

  // The same hooks over HTTP, for a fake running in another process.
  app.post('/_test/sessions/:id/complete', async (request) => view(complete((request.params as { id: string }).id, request.body ?? {})));
  app.post('/_test/sessions/:id/expire', async (request) => view(expire((request.params as { id: string }).id)));

  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    app,
    host: '127.0.0.1',
    port,
    sessions,
    calls,
    failNextCreates(count, error = { status: 500, type: 'api_error', code: 'internal_error', message: 'An unknown error occurred' }) {
      state.failures = Array.from({ length: count }, () => error);
    },
    complete,
    expire,
    event(type, id) {
      return {
        id: `evt_${randomBytes(12).toString('hex')}`,
        object: 'event',
        api_version: '2026-10-28.endive',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object: view(get(id)) },
      };
    },
    close: () => app.close(),
  };
}

/** Stripe's side of the wire, whatever the resource: bracketed form bodies, a secret key on every API call, each call recorded. */
function stripeWireFormat(app: FastifyInstance, calls: FakeStripe['calls']): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, qs.parse(body as string, { depth: 10, arrayLimit: 100 }));
  });
  app.addHook('onRequest', async (request, reply) => {
    calls.push({
      method: request.method,
      path: new URL(request.url, 'http://fake-stripe').pathname,
      idempotencyKey: request.headers['idempotency-key'] as string | undefined,
    });
    if (request.url.startsWith('/_test/')) return;
    const auth = request.headers.authorization;
    if (!auth || !/^Bearer sk_(test|live)_\S+$/.test(auth)) {
      return sendStripeResult(reply, stripeError(401, 'invalid_request_error', 'api_key_invalid', 'Invalid API Key provided'));
    }
  });
}

/** Checkout Sessions: create (with Idempotency-Key replay and the queued failures), retrieve, expire. */
function checkoutSessionRoutes(app: FastifyInstance, state: FakeStripeState): void {
  const { sessions, idempotent } = state;

  app.post('/v1/checkout/sessions', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (typeof key === 'string' && idempotent.has(key)) {
      const replay = idempotent.get(key)!;
      return reply.status(replay.status).header('idempotent-replayed', 'true').send(replay.body);
    }
    const failure = state.failures.shift();
    const result = failure
      ? stripeError(failure.status, failure.type, failure.code, failure.message)
      : createCheckoutSession(sessions, (request.body ?? {}) as Record<string, any>);
    if (typeof key === 'string' && result.status < 500) idempotent.set(key, result);
    return sendStripeResult(reply, result);
  });

  app.get('/v1/checkout/sessions/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const session = sessions.get(id);
    if (!session) return sendStripeResult(reply, noSuchSession(id));
    return view(session);
  });

  // Stripe's rule: only an open session can be expired.
  app.post('/v1/checkout/sessions/:id/expire', async (request, reply) => {
    const { id } = request.params as { id: string };
    const session = sessions.get(id);
    if (!session) return sendStripeResult(reply, noSuchSession(id));
    if (session.status !== 'open') {
      return sendStripeResult(
        reply,
        stripeError(
          400,
          'invalid_request_error',
          'checkout_session_not_open',
          'Only Checkout Sessions with a status in ["open"] can be expired.',
        ),
      );
    }
    session.status = 'expired';
    return view(session);
  });
}

/** A session as Stripe shows it: without what the create call passed, and its page's URL only while it is open. */
function view(s: FakeCheckoutSession) {
  const { line_items_input: _ignored, ...rest } = s;
  return { ...rest, url: s.status === 'open' ? s.url : null };
}

/** A create call's body checked as Stripe checks it (the params payments sends), then stored as an open session. */
function createCheckoutSession(sessions: Map<string, FakeCheckoutSession>, body: Record<string, any>): StripeResult {
  const now = Math.floor(Date.now() / 1000);
  for (const param of ['mode', 'success_url', 'cancel_url']) {
    if (!body[param]) return stripeError(400, 'invalid_request_error', 'parameter_missing', `Missing required param: ${param}.`, param);
  }
  const items = Array.isArray(body.line_items) ? body.line_items : [];
  if (!items.length)
    return stripeError(400, 'invalid_request_error', 'parameter_missing', 'Missing required param: line_items.', 'line_items');
  const total = lineItemsTotal(items);
  if ('error' in total) return total.error;
  const expiresAt = body.expires_at ? Number(body.expires_at) : now + 24 * 3600;
  if (expiresAt < now + 30 * 60 || expiresAt > now + 24 * 3600) {
    return stripeError(
      400,
      'invalid_request_error',
      'parameter_invalid_integer',
      'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
      'expires_at',
    );
  }
  const id = `cs_test_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}`;
  const session: FakeCheckoutSession = {
    id,
    object: 'checkout.session',
    mode: String(body.mode),
    status: 'open',
    payment_status: 'unpaid',
    amount_total: total.amount,
    amount_subtotal: total.amount,
    currency: total.currency,
    metadata: (body.metadata ?? {}) as Record<string, string>,
    success_url: String(body.success_url),
    cancel_url: String(body.cancel_url),
    url: `https://checkout.stripe.com/c/pay/${id}`,
    expires_at: expiresAt,
    created: now,
    livemode: false,
    customer_email: typeof body.customer_email === 'string' && body.customer_email ? body.customer_email : null,
    customer_details: null,
    line_items_input: items,
  };
  sessions.set(id, session);
  return { status: 200, body: session };
}

/** The amount the line items add up to, and their currency (the last item's), or Stripe's error for a bad item. */
function lineItemsTotal(items: any[]): { amount: number; currency: string } | { error: StripeResult } {
  let amount = 0;
  let currency = '';
  for (const item of items) {
    const unit = Number(item?.price_data?.unit_amount);
    const quantity = Number(item?.quantity ?? 1);
    if (!Number.isInteger(unit) || unit < 0)
      return {
        error: stripeError(
          400,
          'invalid_request_error',
          'parameter_invalid_integer',
          'Invalid integer: unit_amount',
          'line_items[0][price_data][unit_amount]',
        ),
      };
    if (!item?.price_data?.product_data?.name)
      return {
        error: stripeError(
          400,
          'invalid_request_error',
          'parameter_missing',
          'Missing required param: line_items[0][price_data][product_data][name].',
        ),
      };
    amount += unit * quantity;
    currency = String(item.price_data.currency ?? '');
  }
  return { amount, currency };
}
