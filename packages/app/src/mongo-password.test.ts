import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.js';

let folder = '';
const secret = async (name: string, text: string): Promise<string> => {
  const file = join(folder, name);
  await writeFile(file, text);
  return file;
};

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'workplan-secret-'));
});

const mongodb = (uri: string, file: string) =>
  parseConfig({ STORAGE: 'mongodb', MONGODB_URI: uri, MONGODB_PASSWORD_FILE: file });

describe('MONGODB_PASSWORD_FILE', () => {
  it('puts the password of the file after the user name, percent-encoded, without the final line break', async () => {
    const file = await secret('password', 'p@ss:w/rd é\n');
    expect(mongodb('mongodb://workplan@mongo:27017/workplan?authSource=admin', file).mongodbUri).toBe(
      'mongodb://workplan:p%40ss%3Aw%2Frd%20%C3%A9@mongo:27017/workplan?authSource=admin',
    );
    expect(mongodb('mongodb+srv://app@cluster.example/workplan', file).mongodbUri).toBe('mongodb+srv://app:p%40ss%3Aw%2Frd%20%C3%A9@cluster.example/workplan');
  });

  it('refuses a URI with no user name or with a password already, and an empty or missing file, never echoing a secret', async () => {
    const file = await secret('other', 'hunter2-secret\r\n');
    const problemsOf = (uri: string, passwordFile: string): readonly string[] => {
      try {
        mongodb(uri, passwordFile);
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
      }
      return [];
    };
    expect(problemsOf('mongodb://mongo:27017/workplan', file)).toEqual([expect.stringContaining('needs a user name in MONGODB_URI')]);
    expect(problemsOf('mongodb://u:old-password@mongo/workplan', file)).toEqual([expect.stringContaining('holds a password already')]);
    expect(problemsOf('mongodb://u@mongo/workplan', await secret('empty', '\n'))).toEqual([expect.stringContaining('is empty')]);
    expect(problemsOf('mongodb://u@mongo/workplan', join(folder, 'missing'))).toEqual([expect.stringContaining('cannot be read (ENOENT)')]);
    const all = ['mongodb://mongo/w', 'mongodb://u:old-password@mongo/w'].flatMap((uri) => problemsOf(uri, file)).join('\n');
    expect(all).not.toMatch(/hunter2|old-password/u);
  });

  it('is ignored, with a warning, when the storage is not MongoDB', () => {
    expect(parseConfig({ MONGODB_PASSWORD_FILE: '/run/secrets/missing' }).warnings).toEqual([
      'MONGODB_PASSWORD_FILE is set but STORAGE is not mongodb: it is ignored',
    ]);
  });
});
