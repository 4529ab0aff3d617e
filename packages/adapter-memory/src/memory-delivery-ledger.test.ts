import { describeDeliveryLedgerContract } from '@workplan/testing';
import { MemoryDeliveryLedger } from './memory-delivery-ledger.js';

describeDeliveryLedgerContract('memory', async () => new MemoryDeliveryLedger());
