/** @workplan/testing: contract suites, builders, hostile-request generators and the OpenAPI oracle shared by the tests. */
export { clearOfMinuteEnd } from './clock-minute.js';
export { runApp, runCommand, type AppProcess, type RunOptions } from './app-process.js';
export {
  chromiumIsRequired,
  chromiumPath,
  expectAccessible,
  hasChromium,
  launchChromium,
  warnWithoutChromium,
  watchPage,
  withAxe,
  type PageWatch,
} from './browser.js';
export { send, sendRaw, untilReady, type HttpAnswer, type HttpCall } from './http-client.js';
export { startReceiver, type ReceivedPost, type ReceiverAnswer, type WebhookReceiver } from './webhook-receiver.js';
export { openEventStream, type EventStream, type ServerEvent } from './event-stream.js';
export { damageTablePage } from './damaged-page.js';
export { describeHttpContract } from './http-contract.js';
export { department, kindsWithDepartments } from './third-kind.js';
export {
  contractResources,
  expectBareProblem,
  expectProblem,
  uniqueText,
  type ContractCall,
  type ContractResource,
  type ServiceUnderTest,
} from './http-contract-data.js';
export { hostileBodies } from './hostile-bodies.js';
export { headerLine, rawFragments, rawMethod, rawTargets } from './hostile-bytes.js';
export { contentTypeArb, headerValue, hostileHeaders, keyHeaders, type KeyHeader } from './hostile-headers.js';
export { hostileTargets, methodArb, otherPath, parserRefuses, standardMethods } from './hostile-paths.js';
export { CONTRACT_STATUSES, expectContractAnswer, firstAnswer, operationOf, storedRecords, type SentRequest } from './hostile-requests.js';
export { judge, schemaCheckOf, templateOf, type Exchange, type SchemaCheck, type Verdict } from './openapi-conformance.js';
export { describeChangeLogContract } from './change-log-contract.js';
export { describeDeliveryLedgerContract, type DeliveryLedgerFactory } from './delivery-ledger-contract.js';
export { buildRecord, deleteRecord, insertRecord, testId, updateRecord, type TextUpdate } from './records.js';
export { describeRecordRepositoryContract } from './repository-contract.js';
export { type StorageFactory, type StorageUnderTest } from './storage-under-test.js';
export { isSettled } from './settled.js';
export { hasPromtool, HOW_TO_GET_PROMTOOL, NO_PROMTOOL_MARK, promtoolPath } from './promtool.js';
