import { creationOf, costCenter, uniquenessKey } from '@workplan/core';
import { buildRecord } from '@workplan/testing';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from './schema.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

describe('a file of schema version 5', () => {
  it('has the folded text of its records folded again as it opens, so a search finds them as a new file would', async () => {
    const path = files.databasePath();
    const first = files.open({ path });
    for (const text of ['Straße Norte', 'Nº 5 Almoxarifado']) {
      await first.repositories.costCenters.insert(creationOf(costCenter, buildRecord(costCenter, { text })), uniquenessKey(text));
    }
    await first.close();
    // As version 5 folded them: lower case alone, compatibility forms kept.
    const raw = new DatabaseSync(path);
    raw.exec(`UPDATE cost_centers SET folded = 'straße norte' WHERE "text" = 'Straße Norte'`);
    raw.exec(`UPDATE cost_centers SET folded = 'nº 5 almoxarifado' WHERE "text" = 'Nº 5 Almoxarifado'`);
    raw.exec('PRAGMA user_version = 5');
    raw.close();

    const storage = files.open({ path });
    const byText = { field: 'text', descending: false } as const;
    const search = async (term: string) =>
      (await storage.repositories.costCenters.query({ search: term, order: byText, skip: 0, limit: 10, count: false })).records.map((record) => record.title);
    expect(await search('strasse')).toEqual(['Straße Norte']);
    expect(await search('no 5')).toEqual(['Nº 5 Almoxarifado']);
    const check = new DatabaseSync(path, { readOnly: true });
    files.closeAfter(check);
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
  });
});
