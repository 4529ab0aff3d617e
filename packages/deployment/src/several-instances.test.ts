import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '@workplan/app';
import { MONGO_IMAGE } from '@workplan/testing/mongodb';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readRepositoryFile } from './repository-file.js';
import { at } from './yaml-path.js';

// No Docker engine runs here: the file is read as compose would read it (anchors merged by the YAML parser) and checked.
const compose: unknown = parse(readRepositoryFile('docker-compose.several.yml'), { merge: true });
const single: unknown = parse(readRepositoryFile('docker-compose.yml'));
const caddyfile = readRepositoryFile('deploy/caddy/Caddyfile');
const prometheus = parse(readRepositoryFile('deploy/prometheus/prometheus.yml')) as {
  rule_files: string[];
  scrape_configs: { job_name: string; metrics_path?: string; static_configs: { targets: string[] }[] }[];
};
const instances = ['app-1', 'app-2'];
const environmentOf = (service: string): Record<string, string> => at(compose, 'services', service, 'environment') as Record<string, string>;

describe('docker-compose.several.yml', () => {
  it('runs two instances of the service, a load balancer, MongoDB and Prometheus', () => {
    expect(Object.keys(at(compose, 'services') ?? {}).sort()).toEqual(['app-1', 'app-2', 'balancer', 'mongo', 'prometheus']);
  });

  it('gives both instances the same image, built from the Dockerfile, the same settings and secrets, once MongoDB is healthy', () => {
    for (const service of instances) {
      expect(at(compose, 'services', service, 'build')).toBe('.');
      expect(at(compose, 'services', service, 'init')).toBe(true);
      expect(at(compose, 'services', service, 'depends_on', 'mongo', 'condition')).toBe('service_healthy');
      expect(at(compose, 'services', service, 'secrets')).toEqual(['api_keys', 'mongodb_password']);
      expect(environmentOf(service)).toEqual(environmentOf('app-1'));
    }
  });

  it('publishes no port of the instances nor of MongoDB: the balancer and Prometheus alone, on the loopback address', () => {
    for (const service of [...instances, 'mongo']) expect(at(compose, 'services', service, 'ports')).toBeUndefined();
    expect(at(compose, 'services', 'balancer', 'ports')).toEqual(['127.0.0.1:3000:80']);
    expect(at(compose, 'services', 'prometheus', 'ports')).toEqual(['127.0.0.1:9090:9090']);
  });

  it('gives each instance an environment its configuration accepts in production, with nothing ignored, on the replica set, behind one proxy', async () => {
    const secrets = await mkdtemp(join(tmpdir(), 'workplan-several-'));
    await writeFile(join(secrets, 'api_keys'), 'several-key-0123456789\n');
    await writeFile(join(secrets, 'mongodb_password'), 's3cret\n');
    for (const service of instances) {
      const onThisMachine = Object.fromEntries(
        Object.entries(environmentOf(service)).map(([name, value]) => [name, value.replace(/^\/run\/secrets\//u, `${secrets}/`)]),
      );
      const config = parseConfig({ ...onThisMachine, NODE_ENV: 'production' });
      expect(config).toMatchObject({ storage: 'mongodb', host: '0.0.0.0', port: 3000, production: true, trustProxy: 1, warnings: [] });
      expect(config.mongodbUri).toBe('mongodb://workplan:s3cret@mongo:27017/workplan?authSource=admin&replicaSet=rs0');
    }
  });

  it('runs MongoDB as the one-node compose file does, as a replica set whose members authenticate with a key file from a secret', () => {
    expect(at(compose, 'services', 'mongo', 'image')).toBe(MONGO_IMAGE);
    expect(at(compose, 'services', 'mongo', 'environment')).toEqual(at(single, 'services', 'mongo', 'environment'));
    expect(at(compose, 'services', 'mongo', 'volumes')).toEqual(['mongo-data:/data/db']);
    expect(at(compose, 'services', 'mongo', 'secrets')).toEqual(['mongodb_password', 'mongodb_keyfile']);
    const entrypoint = (at(compose, 'services', 'mongo', 'entrypoint') as string[]).join(' ');
    expect(entrypoint).toMatch(/install -m 400 -o mongodb -g mongodb \/run\/secrets\/mongodb_keyfile (\S+) .*exec docker-entrypoint\.sh mongod --replSet rs0 --keyFile \1 --bind_ip_all$/u);
    // The replica set the instances name is the one the healthcheck makes, of the member they reach.
    const check = (at(compose, 'services', 'mongo', 'healthcheck', 'test') as string[]).join(' ');
    expect(check).toContain('rs.initiate({ _id: "rs0", members: [{ _id: 0, host: "mongo:27017" }] })');
    expect(check).toContain('quit(db.hello().isWritablePrimary ? 0 : 1)');
    // `$$` is compose's escape: the shell of the check, not compose, reads the password file.
    expect(check).toContain('-p "$$(cat /run/secrets/mongodb_password)"');
  });

  it('reads every secret from a file under secrets/, as the one-node compose file does, and the same two from the same files', () => {
    const secrets = at(compose, 'secrets') as Record<string, { file?: string }>;
    expect(Object.keys(secrets).sort()).toEqual(['api_keys', 'mongodb_keyfile', 'mongodb_password']);
    for (const secret of Object.values(secrets)) expect(secret.file).toMatch(/^\.\/secrets\/[a-z_]+\.txt$/u);
    expect(at(compose, 'secrets', 'api_keys')).toEqual(at(single, 'secrets', 'api_keys'));
    expect(at(compose, 'secrets', 'mongodb_password')).toEqual(at(single, 'secrets', 'mongodb_password'));
  });

  it('balances over both instances with Caddy, checking /health/ready, without sticky sessions, and keeps /metrics inside', () => {
    expect(at(compose, 'services', 'balancer', 'image')).toMatch(/^caddy:\d+\.\d+/u);
    expect(at(compose, 'services', 'balancer', 'volumes')).toContain('./deploy/caddy/Caddyfile:/etc/caddy/Caddyfile:ro');
    expect(caddyfile).toMatch(new RegExp(`^\\s*reverse_proxy ${instances.map((name) => `${name}:3000`).join(' ')} \\{$`, 'mu'));
    expect(caddyfile).toMatch(/^\s*health_uri \/health\/ready$/mu);
    expect(caddyfile).toMatch(/^\s*lb_policy round_robin$/mu);
    expect(caddyfile).toMatch(/^\s*@metrics path \/metrics \/metrics\/\*\n\s*respond @metrics 404$/mu);
    // No other path is kept back: /console/ and /docs go through as /api/ does.
    expect(caddyfile.match(/^\s*(?:respond|handle|route|@\w+)\b.*$/gmu)).toHaveLength(2);
    // The balancer closes idle connections before the service's 65 s keep-alive does.
    const keepalive = Number(/^\s*keepalive (\d+)s$/mu.exec(caddyfile)?.[1]);
    expect(keepalive).toBeLessThan(65);
  });

  it('has Prometheus scrape each instance directly as the job the alerts expect, and load the alerting rules', () => {
    expect(at(compose, 'services', 'prometheus', 'image')).toMatch(/^prom\/prometheus:v\d+\.\d+\.\d+$/u);
    expect(at(compose, 'services', 'prometheus', 'volumes')).toEqual(
      expect.arrayContaining(['./deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro', './deploy/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro']),
    );
    expect(prometheus.rule_files).toEqual(['alerts.yml']);
    const job = prometheus.scrape_configs.find((config) => config.job_name === 'workplan');
    expect(job?.metrics_path ?? '/metrics').toBe('/metrics');
    expect(job?.static_configs.flatMap((config) => config.targets).sort()).toEqual(instances.map((name) => `${name}:3000`));
    expect(readRepositoryFile('deploy/prometheus/alerts.yml')).toContain('up{job="workplan"}');
  });
});
