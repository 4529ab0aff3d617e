import { describe, expect, it } from 'vitest';
import { costCenter, workSchedule } from './kind-description.js';
import { assembleRecord, type RecordKind } from './record.js';

const parts = { id: 'r-1', text: '12x36', createdAt: new Date(1_000), updatedAt: new Date(2_000) };

describe('assembleRecord', () => {
  it('gives each kind its own field, members in the order the JSON shows them', () => {
    expect(Object.entries(assembleRecord(workSchedule, parts))).toEqual([
      ['id', 'r-1'],
      ['value', '12x36'],
      ['createdAt', new Date(1_000)],
      ['updatedAt', new Date(2_000)],
    ]);
    expect(Object.keys(assembleRecord(costCenter, parts))).toEqual(['id', 'title', 'createdAt', 'updatedAt']);
  });

  it('makes a new record each time, sharing nothing with the one before', () => {
    const first: { value: string } = assembleRecord(workSchedule, parts);
    const second = assembleRecord(workSchedule, { ...parts, id: 'r-2', text: '6x1' });
    first.value = 'changed';
    expect(second).toEqual({ id: 'r-2', value: '6x1', createdAt: parts.createdAt, updatedAt: parts.updatedAt });
  });

  it('keeps a field named __proto__ as a member of its own, not as the prototype', () => {
    const kind: RecordKind<'__proto__'> = { name: 'odd', field: '__proto__' };
    const record = assembleRecord(kind, parts);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(record, '__proto__')?.value).toBe('12x36');
    expect(Object.keys(record)).toEqual(['id', '__proto__', 'createdAt', 'updatedAt']);
  });

  it('serves a kind a library user defines, even one whose field shares a name with a member of every object', () => {
    const kind: RecordKind<'toString'> = { name: 'odd', field: 'toString' };
    const record = assembleRecord(kind, parts);
    expect(Object.hasOwn(record, 'toString')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(record, 'toString')?.value).toBe('12x36');
    expect(Object.keys(record)).toEqual(['id', 'toString', 'createdAt', 'updatedAt']);
  });
});
