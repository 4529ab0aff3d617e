import { describe, expect, it } from 'vitest';
import { fromBsonId, toBsonId } from './record-id.js';

describe('record ids as BSON UUIDs', () => {
  it('turns a lowercase canonical UUID into a subtype 4 binary and back', () => {
    const id = '0190a000-0000-7000-8000-00000000abcd';
    const bsonId = toBsonId(id);
    expect(bsonId?.sub_type).toBe(4);
    expect(bsonId && fromBsonId(bsonId)).toBe(id);
  });

  it.each([
    '0190A000-0000-7000-8000-00000000ABCD',
    '0190a0000000700080000000000abcd0',
    '{0190a000-0000-7000-8000-00000000abcd}',
    ' 0190a000-0000-7000-8000-00000000abcd',
    '0190a000-0000-7000-8000-00000000abcd\n',
    'not a uuid',
    '',
  ])('refuses %j, which names no record', (id) => {
    expect(toBsonId(id)).toBeUndefined();
  });
});
