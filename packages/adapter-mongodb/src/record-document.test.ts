import { costCenter, workSchedule } from '@workplan/core';
import { buildRecord } from '@workplan/testing';
import { describe, expect, it } from 'vitest';
import { toDocument, toRecord } from './record-document.js';

describe('record documents', () => {
  it('stores the text under the kind’s own field and reads the same record back', () => {
    const record = buildRecord(costCenter, { text: 'Financeiro' });
    const document = toDocument(costCenter, record, 'financeiro');
    expect(document).toMatchObject({ title: 'Financeiro', key: 'financeiro', createdAt: record.createdAt });
    expect(document).not.toHaveProperty('value');
    expect(toRecord(costCenter, document)).toEqual(record);
  });

  it('refuses a document that lacks the kind’s text field', () => {
    const document = toDocument(costCenter, buildRecord(costCenter), 'x');
    expect(() => toRecord(workSchedule, document)).toThrow('has no string value');
  });

  it('refuses to store a record whose id the core could not have made', () => {
    const record = buildRecord(workSchedule, { id: 'ABC' });
    expect(() => toDocument(workSchedule, record, 'x')).toThrow('is not a canonical UUID');
  });
});
