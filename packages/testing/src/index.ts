/** @workplan/testing: contract suites and builders shared by the adapters' tests. */
export { send, sendRaw, untilReady, type HttpAnswer, type HttpCall } from './http-client.js';
export { describeHttpContract } from './http-contract.js';
export {
  contractResources,
  expectProblem,
  uniqueText,
  type ContractCall,
  type ContractResource,
  type ServiceUnderTest,
} from './http-contract-data.js';
export { CONTRACT_STATUSES, expectContractAnswer, firstAnswer, operationOf, storedRecords, type SentRequest } from './hostile-requests.js';
export { buildRecord, testId } from './records.js';
export { describeRecordRepositoryContract, type RepositoryFactory } from './repository-contract.js';
