/** @workplan/core: the domain of work schedules and cost centers, with no dependency at all. */
export {
  Catalog,
  MAX_SKIP,
  checkPage,
  type CatalogOptions,
  type HistoryPage,
  type HistoryRequest,
  type ListedPage,
  type PageRequest,
  type WriteOptions,
} from './catalog.js';
export {
  UNNAMED_WRITER,
  changeIdOf,
  creationOf,
  deletionOf,
  numbered,
  sequenceOf,
  AFTER_PATTERN,
  updateOf,
  type Change,
  type ChangeAction,
  type ChangeDraft,
  type Creation,
  type Deletion,
  type Update,
} from './change.js';
export {
  ChangeFeed,
  checkChangesLimit,
  checkChangesWait,
  DEFAULT_CHANGES_LIMIT,
  MAX_CHANGES_LIMIT,
  MAX_CHANGES_WAIT_SECONDS,
  type ChangesPage,
  type ChangesRequest,
} from './change-feed.js';
export { type DeliveryFailure, type DeliveryLease, type DeliveryLedger, type DeliveryState } from './delivery-ledger.js';
export { WorkplanError, type FieldIssue, type ParameterRefusal, type ParameterRule, type WorkplanErrorKind } from './errors.js';
export {
  noGiveWay,
  systemClock,
  type AbortSignalLike,
  type ChangeLog,
  type Clock,
  type GiveWay,
  type IdGenerator,
  type Page,
  type ReadOptions,
  type RecordRepository,
} from './ports.js';
export {
  assembleRecord,
  type CatalogRecord,
  type CostCenter,
  type CostCenterInput,
  type RecordBase,
  type RecordInput,
  type RecordKind,
  type RecordParts,
  type WorkSchedule,
  type WorkScheduleInput,
} from './record.js';
export {
  costCenter,
  seedKinds,
  workSchedule,
  type Gender,
  type KindDescription,
  type Kinds,
  type Operation,
  type SeedKinds,
} from './kind-description.js';
export {
  kindNamed,
  mapKinds,
  repositoriesOf,
  wrapRepositories,
  type Catalogs,
  type FieldOf,
  type KindName,
  type Repositories,
} from './kinds.js';
export {
  CREATION_ORDER,
  MAX_SEARCH_LENGTH,
  comparePositions,
  compareText,
  cursorOf,
  FOLD_VERSION,
  foldText,
  notACursor,
  orderOf,
  positionOf,
  readCursor,
  searchOf,
  sortsOf,
  type FoundRecords,
  type ListCursor,
  type ListPosition,
  type RecordOrder,
  type RecordQuery,
  type SortField,
} from './record-query.js';
export { isAtExpectedRevision, revisionOf, type ExpectedRevisions } from './revision.js';
export { MAX_TEXT_LENGTH, checkText, uniquenessKey, type TextCheck, type TextRule } from './text-rules.js';
export { createUuidV7Generator, type UuidV7Sources } from './uuid-v7.js';
export { DEFAULT_MAX_PAGE_SIZE, createWorkplan, type Workplan, type WorkplanOptions } from './workplan.js';
