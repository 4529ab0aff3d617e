import { costCenter, creationOf, deletionOf, seedKinds, updateOf, workSchedule } from '@workplan/core';
import { buildRecord } from '@workplan/testing';
import { describe, expect, it } from 'vitest';
import { toChange, toChangeDocument } from './change-document.js';

describe('change documents', () => {
  const schedule = buildRecord(workSchedule, { text: '12x36' });
  const renamed = { ...schedule, value: '6x1', updatedAt: new Date(schedule.updatedAt.getTime() + 1) };
  const center = buildRecord(costCenter, { text: 'Financeiro' });
  const writtenAt = new Date('2026-11-25T04:00:00.000Z');

  it.each([
    ['a creation', creationOf(workSchedule, schedule, 'RH')],
    ['an update', updateOf(workSchedule, schedule, renamed, 'Folha')],
    ['a deletion', deletionOf(workSchedule, renamed, writtenAt)],
  ])('keeps %s whole, numbered', (_name, draft) => {
    expect(toChange(toChangeDocument(draft, 42, writtenAt, seedKinds), seedKinds)).toEqual({ id: '42', ...draft });
  });

  it('keeps a record’s text under one name for every kind, and when it was numbered', () => {
    expect(toChangeDocument(creationOf(costCenter, center), 7, writtenAt, seedKinds)).toEqual({
      _id: 7,
      kind: 'costCenter',
      recordId: center.id,
      action: 'create',
      at: center.updatedAt,
      by: 'system',
      data: { id: center.id, text: 'Financeiro', createdAt: center.createdAt, updatedAt: center.updatedAt },
      previous: null,
      writtenAt,
    });
  });

  it('refuses a document of a kind no record has', () => {
    const document = { ...toChangeDocument(creationOf(workSchedule, schedule), 1, writtenAt, seedKinds), kind: 'escala' };
    expect(() => toChange(document, seedKinds)).toThrow(/no kind of record is named "escala"/);
  });
});
