import { type DeliveryFailure, type DeliveryLedger } from '@workplan/core';
import { beforeEach, describe, expect, it } from 'vitest';

/** A fresh, empty ledger per call (a new database or collection for a stored one). */
export type DeliveryLedgerFactory = () => Promise<DeliveryLedger>;

const at = (second: number): Date => new Date(Date.UTC(2026, 10, 25, 9, 0, second, 123));

/** A failure met at `second`, retried a second later. */
const failureAt = (second: number, overrides: Partial<DeliveryFailure> = {}): DeliveryFailure => ({
  lastError: 'HTTP 503',
  failingSince: at(second),
  attempts: 1,
  nextAttempt: at(second + 1),
  markedFailingAt: null,
  ...overrides,
});

/**
 * What every storage's delivery ledger does: a lease one holder at a time, taken over once
 * it expires; a cursor and a failure that only the holder may write; and each of these
 * atomic when instances race.
 */
export function describeDeliveryLedgerContract(adapterName: string, makeLedger: DeliveryLedgerFactory): void {
  describe(`${adapterName} delivery ledger contract`, () => {
    let ledger: DeliveryLedger;

    beforeEach(async () => {
      ledger = await makeLedger();
    });

    it('knows no subscription before its first claim, which starts it at the beginning', async () => {
      expect(await ledger.state('folha')).toBeUndefined();
      const state = await ledger.claim('folha', 'a', at(0), at(30));
      expect(state).toEqual({ subscription: 'folha', cursor: 0, lease: { holder: 'a', expiresAt: at(30) }, failure: null });
      expect(await ledger.state('folha')).toEqual(state);
    });

    it('refuses a claim while another holder’s lease runs, and lets it be taken once it expired', async () => {
      await ledger.claim('folha', 'a', at(0), at(30));
      expect(await ledger.claim('folha', 'b', at(29), at(59))).toBeUndefined();
      expect((await ledger.state('folha'))?.lease).toEqual({ holder: 'a', expiresAt: at(30) });
      const taken = await ledger.claim('folha', 'b', at(30), at(60));
      expect(taken?.lease).toEqual({ holder: 'b', expiresAt: at(60) });
    });

    it('renews the lease of its holder, keeping the cursor and the failure', async () => {
      await ledger.claim('folha', 'a', at(0), at(30));
      await ledger.advance('folha', 'a', 7);
      await ledger.fail('folha', 'a', failureAt(5));
      const renewed = await ledger.claim('folha', 'a', at(10), at(40));
      expect(renewed).toEqual({ subscription: 'folha', cursor: 7, lease: { holder: 'a', expiresAt: at(40) }, failure: failureAt(5) });
    });

    it('moves the cursor forward only, for the holder only, and clears the failure', async () => {
      await ledger.claim('folha', 'a', at(0), at(30));
      await ledger.fail('folha', 'a', failureAt(1));
      expect(await ledger.advance('folha', 'a', 5)).toBe(true);
      expect(await ledger.advance('folha', 'a', 3)).toBe(true);
      expect(await ledger.advance('folha', 'b', 9)).toBe(false);
      expect(await ledger.state('folha')).toMatchObject({ cursor: 5, failure: null });
    });

    it('keeps the failure the holder records, and none from anyone else', async () => {
      await ledger.claim('folha', 'a', at(0), at(30));
      const marked = failureAt(2, { nextAttempt: null, markedFailingAt: at(9), attempts: 40, lastError: 'timeout after 10 s' });
      expect(await ledger.fail('folha', 'a', marked)).toBe(true);
      expect(await ledger.fail('folha', 'b', failureAt(3))).toBe(false);
      expect((await ledger.state('folha'))?.failure).toEqual(marked);
    });

    it('stops a holder that was taken over from writing anything', async () => {
      await ledger.claim('folha', 'a', at(0), at(30));
      await ledger.claim('folha', 'b', at(31), at(61));
      expect(await ledger.advance('folha', 'a', 4)).toBe(false);
      expect(await ledger.fail('folha', 'a', failureAt(32))).toBe(false);
      await ledger.release('folha', 'a');
      expect(await ledger.state('folha')).toEqual({ subscription: 'folha', cursor: 0, lease: { holder: 'b', expiresAt: at(61) }, failure: null });
    });

    it('lets a holder whose lease expired write until another holder takes it', async () => {
      await ledger.claim('folha', 'a', at(0), at(30));
      expect(await ledger.advance('folha', 'a', 3)).toBe(true);
      expect(await ledger.fail('folha', 'a', failureAt(40))).toBe(true);
      expect(await ledger.state('folha')).toMatchObject({ cursor: 3, lease: { holder: 'a', expiresAt: at(30) }, failure: failureAt(40) });
    });

    it('frees a released lease for another holder at once, keeping the cursor', async () => {
      await ledger.claim('folha', 'a', at(0), at(30));
      await ledger.advance('folha', 'a', 2);
      await ledger.release('folha', 'a');
      expect((await ledger.state('folha'))?.lease).toBeNull();
      expect(await ledger.claim('folha', 'b', at(1), at(31))).toMatchObject({ cursor: 2, lease: { holder: 'b' } });
    });

    it('keeps each subscription apart', async () => {
      await ledger.claim('folha', 'a', at(0), at(30));
      await ledger.advance('folha', 'a', 8);
      expect(await ledger.claim('ponto', 'b', at(1), at(31))).toMatchObject({ subscription: 'ponto', cursor: 0, lease: { holder: 'b' } });
      expect(await ledger.advance('ponto', 'a', 1)).toBe(false);
      expect(await ledger.state('folha')).toMatchObject({ cursor: 8, lease: { holder: 'a' } });
    });

    it('gives a free lease to exactly one of many holders claiming it at once', async () => {
      const holders = Array.from({ length: 8 }, (_, i) => `h${i}`);
      const claims = await Promise.all(holders.map((holder) => ledger.claim('folha', holder, at(0), at(30))));
      const winners = claims.filter((claim) => claim !== undefined);
      expect(winners).toHaveLength(1);
      expect((await ledger.state('folha'))?.lease?.holder).toBe(winners[0]?.lease?.holder);
    });

    it('gives an expired lease to exactly one of many holders taking it over at once', async () => {
      await ledger.claim('folha', 'gone', at(0), at(30));
      const holders = Array.from({ length: 8 }, (_, i) => `h${i}`);
      const claims = await Promise.all(holders.map((holder) => ledger.claim('folha', holder, at(40), at(70))));
      expect(claims.filter((claim) => claim !== undefined)).toHaveLength(1);
    });

    it('answers states a caller cannot change by changing what it was given', async () => {
      const claimed = await ledger.claim('folha', 'a', at(0), at(30));
      claimed?.lease?.expiresAt.setTime(0);
      const failure = failureAt(1);
      await ledger.fail('folha', 'a', failure);
      failure.failingSince.setTime(0);
      expect(await ledger.state('folha')).toMatchObject({ lease: { expiresAt: at(30) }, failure: { failingSince: at(1) } });
    });
  });
}
