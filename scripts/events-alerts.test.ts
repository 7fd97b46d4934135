// Static checks of the dead-letter alerting (no Prometheus runs here): the rules file parses, its rules use the
// metric names the kit's inbox exports, Prometheus loads it, and docker compose mounts it where the config says.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './lib/workspace.ts';

const read = (p: string) => readFileSync(path.join(ROOT, p), 'utf8');
type Rule = { alert?: string; expr?: string; for?: string; labels?: Record<string, string>; annotations?: Record<string, string> };

describe('dead-letter alerts', () => {
  const rules = (parse(read('deploy/alerts.yml')) as { groups: Array<{ name: string; rules: Rule[] }> }).groups.flatMap((g) => g.rules);
  const inbox = read('packages/service-kit/src/inbox.ts');

  it('fire on any dead letter, on metrics the inbox really exports', () => {
    const counted = rules.find((r) => r.expr?.includes('dead_letter_events_total'));
    expect(counted?.alert).toBe('EventDeadLettered');
    expect(counted?.expr).toMatch(/increase\(dead_letter_events_total\[\w+\]\)\)? > 0/);
    expect(counted?.for).toBeUndefined();
    const waiting = rules.find((r) => r.expr?.includes('dead_letter_events_unreplayed'));
    expect(waiting?.expr).toMatch(/> 0$/);
    for (const name of ['dead_letter_events_total', 'dead_letter_events_unreplayed']) expect(inbox).toContain(`name: '${name}'`);
    for (const rule of rules) expect(rule.annotations?.description).toMatch(/npm run events:(dead-letters|replay)/);
  });

  it('are loaded by Prometheus and mounted by docker compose', () => {
    const config = parse(read('deploy/prometheus.yml')) as { rule_files?: string[] };
    expect(config.rule_files).toContain('/etc/prometheus/alerts.yml');
    const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, { volumes?: string[] }> };
    expect(compose.services.prometheus!.volumes).toContain('./deploy/alerts.yml:/etc/prometheus/alerts.yml:ro');
  });

  it('point at CLI commands that exist', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['events:dead-letters']).toBe('node --import tsx scripts/events-cli.ts list');
    expect(scripts['events:replay']).toBe('node --import tsx scripts/events-cli.ts replay');
  });
});
