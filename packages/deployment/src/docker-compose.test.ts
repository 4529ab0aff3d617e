import { MONGO_IMAGE } from '@workplan/testing/mongodb';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readRepositoryFile } from './repository-file.js';

const compose: unknown = parse(readRepositoryFile('docker-compose.yml'));

/** The value at `path` in parsed YAML, or undefined where the path leads nowhere. */
function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
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

  it('keeps MongoDB off the host network', () => {
    expect(at(compose, 'services', 'mongo', 'ports')).toBeUndefined();
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

  it('points the app at the mongo service on all interfaces, with keys that must come from the environment', () => {
    expect(at(compose, 'services', 'app', 'environment')).toEqual({
      STORAGE: 'mongodb',
      MONGODB_URI: 'mongodb://mongo:27017/workplan',
      HOST: '0.0.0.0',
      PORT: '3000',
      API_KEYS: '${API_KEYS:?set API_KEYS}',
    });
    expect(at(compose, 'services', 'app', 'ports')).toEqual(['3000:3000']);
  });
});
