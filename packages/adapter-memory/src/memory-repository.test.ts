import { workSchedule } from '@workplan/core';
import { deleteRecord, describeRecordRepositoryContract, insertRecord, updateRecord } from '@workplan/testing';
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from './memory-storage.js';

describeRecordRepositoryContract('memory', () => Promise.resolve(createMemoryStorage()));

describe('the memory store', () => {
  it('shows each write in the next plain list at once, however many lists came before', async () => {
    const { repositories } = createMemoryStorage();
    const repository = repositories.workSchedules;
    const texts = async (): Promise<string[]> => (await repository.list({ skip: 0, limit: 10 })).map((record) => record.value);
    const first = await insertRecord(repository, workSchedule, { text: 'turno A', createdAt: new Date(2_000) });
    await expect(texts()).resolves.toEqual(['turno A']);
    const earlier = await insertRecord(repository, workSchedule, { text: 'turno 0', createdAt: new Date(1_000) });
    await expect(texts()).resolves.toEqual(['turno 0', 'turno A']);
    const renamed = await updateRecord(repository, workSchedule, first, { text: 'turno B' });
    await expect(texts()).resolves.toEqual(['turno 0', 'turno B']);
    await deleteRecord(repository, workSchedule, earlier);
    await expect(texts()).resolves.toEqual(['turno B']);
    await expect(repository.list({ skip: 0, limit: 10 })).resolves.toEqual([renamed?.data]);
  });
});
