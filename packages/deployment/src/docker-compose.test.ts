import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '@workplan/app';
import { MONGO_IMAGE } from '@workplan/testing/mongodb';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readRepositoryFile } from './repository-file.js';
import { at } from './yaml-path.js';

const compose: unknown = parse(readRepositoryFile('docker-compose.yml'));

const appEnvironment = at(compose, 'services', 'app', 'environment') as Record<string, string>;
const mongoEnvironment = at(compose, 'services', 'mongo', 'environment') as Record<string, string>;

/** The secret a `/run/secrets/NAME` path names, checked to be one the service mounts. */
function mountedSecret(service: string, path: string | undefined): string {
  const name = /^\/run\/secrets\/([a-z_]+)$/u.exec(path ?? '')?.[1];
  expect(name, `${path ?? 'nothing'} is not a compose secret's path`).toBeDefined();
  expect(at(compose, 'services', service, 'secrets'), `${service} does not mount ${name ?? ''}`).toContain(name);
  return name ?? '';
}

describe('docker-compose.yml', () => {
  it('runs exactly the app and MongoDB', () => {
    expect(Object.keys(at(compose, 'services') ?? {}).sort()).toEqual(['app', 'mongo']);
  });

  it('runs the MongoDB the integration tests run, with its data in a named volume', () => {
    expect(at(compose, 'services', 'mongo', 'image')).toBe(MONGO_IMAGE);
    expect(at(compose, 'services', 'mongo', 'volumes')).toEqual(['mongo-data:/data/db']);
    expect(at(compose, 'volumes')).toHaveProperty('mongo-data');
  });

  it('keeps MongoDB off the host network, and publishes the app on the loopback address only', () => {
    expect(at(compose, 'services', 'mongo', 'ports')).toBeUndefined();
    expect(at(compose, 'services', 'app', 'ports')).toEqual(['127.0.0.1:3000:3000']);
  });

  it('runs both under an init process, which forwards signals and reaps children', () => {
    expect(at(compose, 'services', 'app', 'init')).toBe(true);
    expect(at(compose, 'services', 'mongo', 'init')).toBe(true);
  });

  it('checks MongoDB health with a mongosh ping that fails when the ping does', () => {
    const test = at(compose, 'services', 'mongo', 'healthcheck', 'test');
    expect(test).toEqual(['CMD', 'mongosh', '--quiet', '--eval', expect.stringMatching(/ping.*quit\(|quit\(.*ping/u)]);
    expect(at(compose, 'services', 'mongo', 'healthcheck', 'interval')).toBeDefined();
  });

  it('builds the app from the Dockerfile and starts it once MongoDB is healthy', () => {
    expect(at(compose, 'services', 'app', 'build')).toBe('.');
    expect(at(compose, 'services', 'app', 'depends_on', 'mongo', 'condition')).toBe('service_healthy');
  });

  it('reads every secret from a file under secrets/, which git and the image build both leave out', () => {
    const secrets = at(compose, 'secrets') as Record<string, { file?: string }>;
    expect(Object.keys(secrets).sort()).toEqual(['api_keys', 'mongodb_password']);
    for (const secret of Object.values(secrets)) expect(secret.file).toMatch(/^\.\/secrets\/[a-z_]+\.txt$/u);
    expect(readRepositoryFile('.gitignore').split('\n')).toContain('secrets/');
    expect(readRepositoryFile('.dockerignore').split('\n')).toContain('secrets');
  });

  it('gives the app its keys as a secret file, never in the environment', () => {
    expect(appEnvironment).not.toHaveProperty('API_KEYS');
    expect(mountedSecret('app', appEnvironment.API_KEYS_FILE)).toBe('api_keys');
  });

  it('protects MongoDB with a user whose password, from one secret, neither service holds in its environment', () => {
    const passwordSecret = mountedSecret('mongo', mongoEnvironment.MONGO_INITDB_ROOT_PASSWORD_FILE);
    expect(mountedSecret('app', appEnvironment.MONGODB_PASSWORD_FILE)).toBe(passwordSecret);
    expect(mongoEnvironment).not.toHaveProperty('MONGO_INITDB_ROOT_PASSWORD');
    const user = /^mongodb:\/\/([^@:/]+)@mongo:27017\/workplan\?authSource=admin$/u.exec(appEnvironment.MONGODB_URI ?? '')?.[1];
    expect(user).toBe(mongoEnvironment.MONGO_INITDB_ROOT_USERNAME);
  });

  it('gives the app an environment its configuration accepts in production, with nothing ignored', async () => {
    const secrets = await mkdtemp(join(tmpdir(), 'workplan-compose-'));
    await writeFile(join(secrets, 'api_keys'), '# keys\ncompose-key-0123456789\n');
    await writeFile(join(secrets, 'mongodb_password'), 's3cret/pass\n');
    const onThisMachine = Object.fromEntries(
      Object.entries(appEnvironment).map(([name, value]) => [name, value.replace(/^\/run\/secrets\//u, `${secrets}/`)]),
    );
    // NODE_ENV=production comes from the Dockerfile.
    const config = parseConfig({ ...onThisMachine, NODE_ENV: 'production' });
    expect(config).toMatchObject({ storage: 'mongodb', host: '0.0.0.0', port: 3000, production: true, warnings: [] });
    expect(config.mongodbUri).toBe('mongodb://workplan:s3cret%2Fpass@mongo:27017/workplan?authSource=admin');
    expect(config.apiKeysFile).toBe(join(secrets, 'api_keys'));
  });
});
