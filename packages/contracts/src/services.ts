/**
 * Every service of the system, the gateway included: the one list that the gateway, the service kit, the test stacks
 * and `npm start` read. Files that cannot import it (docker-compose.yml, deploy/prometheus.yml, turbo.json, the
 * workspaces under services/) are checked against it by scripts/services-table.test.ts and scripts/compose.test.ts.
 * Adding a service: docs/operations.md, "Adding a service".
 *
 * - `port`: where it listens by default (its env's PORT default, `npm start`, docker-compose.yml).
 * - `urlEnv`: the gateway's variable listing its replicas (comma-separated base URLs); null for the gateway itself.
 * - `eventDomain`: the first segment of the event subjects it publishes (`plots.plot.claimed`); null when it
 *   publishes none. The shared stream's subjects are `<domain>.>` of each, in this table's order (streams that exist
 *   have them so): a new service goes at the end.
 * - `schema`: its own PostgreSQL schema (one database, a schema per service).
 */
export const SERVICES = {
  contact: { port: 3005, urlEnv: 'CONTACT_URL', eventDomain: 'contact', schema: 'contact' },
  payments: { port: 3002, urlEnv: 'PAYMENTS_URL', eventDomain: 'payments', schema: 'payments' },
  plots: { port: 3001, urlEnv: 'PLOTS_URL', eventDomain: 'plots', schema: 'plots' },
  moderation: { port: 3003, urlEnv: 'MODERATION_URL', eventDomain: 'moderation', schema: 'moderation' },
  map: { port: 3004, urlEnv: 'MAP_URL', eventDomain: 'map', schema: 'map' },
  gateway: { port: 8080, urlEnv: null, eventDomain: null, schema: 'gateway' },
} as const;

type Table = typeof SERVICES;
export type ServiceName = keyof Table;
/** The services behind the gateway: those it proxies to, through their `urlEnv`. */
export type BackendName = { [S in ServiceName]: Table[S]['urlEnv'] extends string ? S : never }[ServiceName];
type EventDomain = NonNullable<Table[ServiceName]['eventDomain']>;

export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];
export const BACKEND_NAMES = SERVICE_NAMES.filter((name): name is BackendName => SERVICES[name].urlEnv !== null);
export const EVENT_DOMAINS = SERVICE_NAMES.flatMap((name): EventDomain[] => {
  const domain = SERVICES[name].eventDomain;
  return domain === null ? [] : [domain];
});

/** The service that publishes an event type: the one whose `eventDomain` is the type's first segment. */
export function eventProducer(type: string): ServiceName {
  const domain = type.split('.')[0];
  const producer = SERVICE_NAMES.find((name) => SERVICES[name].eventDomain === domain);
  if (!producer) throw new Error(`no service publishes ${type} (no eventDomain ${domain} in SERVICES)`);
  return producer;
}
