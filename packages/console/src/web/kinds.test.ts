import { describe, expect, it } from 'vitest';
import { costCenters, scales } from '../test-support/seed-kinds.js';
import { kindsOf } from './kinds.js';

describe('kindsOf', () => {
  it('reads the kinds of kinds.json, each with only what the console uses', () => {
    expect(kindsOf([{ ...scales, messages: {}, schema: 'WorkSchedule' }, costCenters])).toEqual([scales, costCenters]);
  });

  it.each([
    ['no list', { kinds: [] }],
    ['an empty list', []],
    ['a kind that is no object', [scales, 'costCenter']],
    ['a kind without its field', [{ ...scales, field: undefined }]],
    ['a kind with an empty slug', [{ ...scales, slug: '' }]],
    ['a kind of no gender', [{ ...scales, gender: 'neuter' }]],
    ['a kind without its largest page', [{ ...scales, maxPageSize: undefined }]],
    ['a kind whose largest page is no whole number', [{ ...scales, maxPageSize: 2.5 }]],
  ])('refuses %s', (_label, json) => {
    expect(() => kindsOf(json)).toThrow(TypeError);
  });
});
