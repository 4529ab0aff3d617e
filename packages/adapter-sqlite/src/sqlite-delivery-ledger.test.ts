import { workSchedule } from '@workplan/core';
import { describeDeliveryLedgerContract, insertRecord } from '@workplan/testing';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

// As the service opens it: a file in WAL mode, its writes in the write thread.
describeDeliveryLedgerContract('sqlite file', async () => files.open({ path: files.databasePath() }).deliveryLedger);

const at = (second: number): Date => new Date(Date.UTC(2026, 10, 25, 9, 0, second));

describe('the SQLite delivery ledger', () => {
  it('is shared by every storage on one file: one holder at a time, a cursor any of them reads', async () => {
    const path = files.databasePath();
    const [first, second] = [files.open({ path }), files.open({ path })];
    await expect(first.deliveryLedger.claim('folha', 'a', at(0), at(30))).resolves.toMatchObject({ cursor: 0 });
    await expect(second.deliveryLedger.claim('folha', 'b', at(1), at(31))).resolves.toBeUndefined();
    await expect(first.deliveryLedger.advance('folha', 'a', 4)).resolves.toBe(true);
    await expect(second.deliveryLedger.claim('folha', 'b', at(30), at(60))).resolves.toMatchObject({ cursor: 4, lease: { holder: 'b' } });
    await expect(first.deliveryLedger.advance('folha', 'a', 5)).resolves.toBe(false);
    await expect(first.deliveryLedger.state('folha')).resolves.toMatchObject({ cursor: 4, lease: { holder: 'b', expiresAt: at(60) } });
  });

  it('comes to a file of schema version 4 by migration, its changes kept', async () => {
    const path = files.databasePath();
    const storage = files.open({ path });
    const record = await insertRecord(storage.repositories.workSchedules, workSchedule);
    await storage.close();
    // Version 4 as it was: the file made now, less the table of version 5.
    const old = new DatabaseSync(path);
    old.exec('DROP TABLE webhook_deliveries; PRAGMA user_version = 4');
    old.close();
    const migrated = files.open({ path });
    await expect(migrated.changes.read(0, 10)).resolves.toMatchObject([{ id: '1', recordId: record.id }]);
    await expect(migrated.deliveryLedger.state('folha')).resolves.toBeUndefined();
    await expect(migrated.deliveryLedger.claim('folha', 'a', at(0), at(30))).resolves.toMatchObject({ cursor: 0, lease: { holder: 'a' } });
  });
});
