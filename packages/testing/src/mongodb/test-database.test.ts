import { describe, expect, it } from 'vitest';
import { withDatabaseName } from './test-database.js';

describe('withDatabaseName', () => {
  it.each([
    ['mongodb://127.0.0.1:27017/', 'mongodb://127.0.0.1:27017/t1'],
    ['mongodb://localhost:32768', 'mongodb://localhost:32768/t1'],
    ['mongodb://localhost:32768/?directConnection=true', 'mongodb://localhost:32768/t1?directConnection=true'],
    ['mongodb://u:p@a:1,b:2/workplan?replicaSet=rs0', 'mongodb://u:p@a:1,b:2/t1?replicaSet=rs0'],
    ['mongodb+srv://cluster.example/app', 'mongodb+srv://cluster.example/t1'],
  ])('puts the database into %s', (uri, expected) => {
    expect(withDatabaseName(uri, 't1')).toBe(expected);
  });

  it('refuses what is not a MongoDB connection string', () => {
    expect(() => withDatabaseName('http://localhost/', 't1')).toThrow('not a MongoDB connection string');
  });
});
