#!/usr/bin/env node
// Renders a Docker Swarm stack file from docker-compose.yml, so Swarm runs the same images and settings on several
// hosts (docs/scaling.md):
//   node scripts/swarm-stack.mjs --env-file .env [--without postgres,nats] > pixel-atlas-stack.yml
//   docker stack deploy -c pixel-atlas-stack.yml pixel-atlas
// `docker stack deploy` reads only part of the compose format and no .env, hence this: variables substituted as
// compose does, no build/profiles/depends_on/restart, files mounted from the checkout become Swarm configs, app services
// resolve to every task (dnsrr) as the gateway's upstream pools and Prometheus' DNS discovery expect, and the stateful
// services stay on the node labelled pixel-atlas.data=true with their volumes. scripts/swarm-stack.test.ts checks it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, stringify } from 'yaml';
import { ROOT } from './lib/workspace.mjs';

export const SWARM_REPLICAS = { gateway: 2, plots: 3, payments: 2 };
export const STATEFUL_SERVICES = ['postgres', 'nats', 'prometheus'];
export const DATA_NODE_CONSTRAINT = 'node.labels.pixel-atlas.data == true';

/** Compose's variable interpolation: $$, ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}. */
export function interpolate(text, vars) {
  return text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:-|-|:\?|\?)([^}]*))?\}/g, (match, name, op, arg) => {
    if (match === '$$') return '$';
    const value = vars[name];
    if (op === ':-') return value ? value : arg;
    if (op === '-') return value ?? arg;
    if (op === ':?' || op === '?') {
      if (op === ':?' ? !value : value === undefined) throw new Error(`${name}: ${arg}`);
      return value;
    }
    return value ?? '';
  });
}

/** A service's environment with the operator's values: keys compose leaves empty come from `vars` or are left out. */
function environmentOf(service, vars) {
  const out = {};
  for (const [key, value] of Object.entries(service.environment ?? {})) {
    if (value === null || value === undefined) {
      if (vars[key] !== undefined && vars[key] !== '') out[key] = vars[key];
    } else {
      out[key] = String(value);
    }
  }
  return out;
}

/**
 * @param {string} composeText docker-compose.yml
 * @param {Record<string, string | undefined>} vars the operator's environment (.env over the shell's)
 * @param {{ without?: string[] }} [options] services to leave out (e.g. postgres and nats once they are managed)
 */
export function swarmStack(composeText, vars, { without = [] } = {}) {
  const compose = parse(interpolate(composeText, vars), { merge: true });
  const stack = { version: '3.8', services: {}, volumes: {}, configs: {} };
  for (const [name, service] of Object.entries(compose.services)) {
    if (without.includes(name)) continue;
    const stateful = STATEFUL_SERVICES.includes(name);
    const out = { image: service.image };
    if (service.command) out.command = service.command;
    const environment = environmentOf(service, vars);
    if (Object.keys(environment).length) out.environment = environment;
    for (const key of ['init', 'stop_grace_period', 'healthcheck', 'logging']) if (service[key] !== undefined) out[key] = service[key];
    const volumes = [];
    for (const mount of service.volumes ?? []) {
      const [source, target] = mount.split(':');
      if (source.startsWith('.') || source.startsWith('/')) {
        const config = `${name}-${path.basename(source).replace(/[^A-Za-z0-9]+/g, '-')}`;
        stack.configs[config] = { file: path.resolve(ROOT, source) };
        (out.configs ??= []).push({ source: config, target, mode: 0o444 });
      } else {
        stack.volumes[source] = compose.volumes?.[source] ?? {};
        volumes.push(mount);
      }
    }
    if (volumes.length) out.volumes = volumes;
    out.deploy = {
      ...(service.deploy?.resources ? { resources: service.deploy.resources } : {}),
      replicas: stateful ? 1 : (SWARM_REPLICAS[name] ?? 1),
      restart_policy: { condition: 'on-failure', delay: '5s' },
      ...(stateful
        ? { placement: { constraints: [DATA_NODE_CONSTRAINT] }, update_config: { order: 'stop-first' } }
        : { endpoint_mode: 'dnsrr', update_config: { order: 'start-first', parallelism: 1, failure_action: 'rollback' } }),
    };
    if (name === 'gateway') {
      // dnsrr has no routing mesh: the gateway publishes on the hosts it runs on, one per node, for the load balancer.
      const [published, target] = String(service.ports[0]).split(':').slice(-2);
      out.ports = [{ target: Number(target), published: Number(published), protocol: 'tcp', mode: 'host' }];
      out.deploy.placement = { max_replicas_per_node: 1 };
    }
    stack.services[name] = out;
  }
  if (!Object.keys(stack.configs).length) delete stack.configs;
  return escapeDollars(stack);
}

/** `docker stack deploy` interpolates the file again: what is left of `$` (shell variables in commands) is escaped. */
function escapeDollars(value) {
  if (typeof value === 'string') return value.replaceAll('$', '$$$$');
  if (Array.isArray(value)) return value.map(escapeDollars);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeDollars(v)]));
  return value;
}

/** KEY=value lines (comments and blank lines skipped; surrounding quotes removed), as compose reads .env. */
export function parseEnvFile(text) {
  const out = {};
  for (const line of text.split('\n')) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (match) out[match[1]] = match[2].trim().replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const option = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const envFile = option('--env-file');
  const vars = { ...process.env, ...(envFile ? parseEnvFile(readFileSync(envFile, 'utf8')) : {}) };
  try {
    const stack = swarmStack(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), vars, { without: (option('--without') ?? '').split(',').filter(Boolean) });
    process.stdout.write(`# Generated by scripts/swarm-stack.mjs from docker-compose.yml; deploy: docker stack deploy -c <this file> pixel-atlas\n${stringify(stack)}`);
  } catch (error) {
    console.error(`swarm-stack: ${error.message}`);
    process.exit(1);
  }
}
