import { describe, expect, it } from 'vitest';
import { EVENTS } from './events.ts';
import { BACKEND_NAMES, EVENT_DOMAINS, SERVICE_NAMES, SERVICES } from './services.ts';

describe('the services table', () => {
  it('gives every service its own port and schema', () => {
    const ports = SERVICE_NAMES.map((name) => SERVICES[name].port);
    const schemas = SERVICE_NAMES.map((name) => SERVICES[name].schema);
    expect(new Set(ports).size, `ports: ${ports.join(', ')}`).toBe(ports.length);
    expect(new Set(schemas).size, `schemas: ${schemas.join(', ')}`).toBe(schemas.length);
  });

  it('names each backend its upstream variable after it (<NAME>_URL), and only the gateway has none', () => {
    for (const name of BACKEND_NAMES) expect(SERVICES[name].urlEnv, name).toBe(`${name.toUpperCase().replaceAll('-', '_')}_URL`);
    expect(SERVICE_NAMES.filter((name) => !(BACKEND_NAMES as string[]).includes(name))).toEqual(['gateway']);
  });

  it("has an event domain named after each publishing service (the broker's grants assume it)", () => {
    for (const name of SERVICE_NAMES) {
      const domain = SERVICES[name].eventDomain;
      if (domain !== null) expect(domain, name).toBe(name);
    }
  });

  it('covers every event type of @pixel-atlas/contracts/events, and every domain has events', () => {
    const prefixes = new Set(Object.keys(EVENTS).map((type) => type.split('.')[0]));
    expect([...prefixes].filter((prefix) => !(EVENT_DOMAINS as string[]).includes(prefix!))).toEqual([]);
    expect(EVENT_DOMAINS.filter((domain) => !prefixes.has(domain))).toEqual([]);
  });

  it('keeps the event stream subjects in the order existing streams have them (a new service goes at the end)', () => {
    expect(EVENT_DOMAINS.slice(0, 5)).toEqual(['contact', 'payments', 'plots', 'moderation', 'map']);
  });
});
