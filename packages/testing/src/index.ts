/** @workplan/testing: contract suites and builders shared by the adapters' tests. */
export { buildRecord, testId } from './records.js';
export { describeRecordRepositoryContract, type RepositoryFactory } from './repository-contract.js';
