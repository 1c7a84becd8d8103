// The storage contract: one suite, registered once per backend by storage.test.ts.
import { agendaRoundTripContract, jobRepositoryContract } from './contract-agenda.ts';
import { batchLifecycleContract, countersContract, idempotencyContract } from './contract-batches.ts';
import { blobContract } from './contract-blobs.ts';
import { retentionAndRecoveryContract, statusDerivationContract, transitionContract } from './contract-items.ts';
import type { ContractBackend } from './helpers.ts';
import { ContractContext } from './helpers.ts';

export type { ContractBackend, ContractNamespace } from './helpers.ts';

export function registerStorageContract(backend: ContractBackend): void {
  describe(`storage contract: ${backend.name}`, function () {
    let context: ContractContext | undefined;
    const current = (): ContractContext => {
      if (!context) throw new Error('contract context used outside a test');
      return context;
    };

    before(function () {
      if (backend.unavailable) {
        console.log(`    ${backend.name} storage suite skipped: ${backend.unavailable}`);
        this.skip();
      }
    });
    beforeEach(() => {
      context = new ContractContext(backend);
    });
    afterEach(async () => {
      await context?.dispose();
      context = undefined;
    });

    describe('batches', () => batchLifecycleContract(current));
    describe('idempotency', () => idempotencyContract(current));
    describe('counters and admission limits', () => countersContract(current));
    describe('item transitions', () => transitionContract(current));
    describe('batch status derivation', () => statusDerivationContract(current));
    describe('retention and lease recovery', () => retentionAndRecoveryContract(current));
    describe('blob store', () => blobContract(current));
    describe('agenda job repository', () => jobRepositoryContract(current));
    describe('agenda round trip', () => agendaRoundTripContract(current));
  });
}
