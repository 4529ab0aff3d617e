/** @workplan/core: the domain of work schedules and cost centers, with no dependency at all. */
export { Catalog, MAX_SKIP, type CatalogOptions, type ListedPage, type PageRequest } from './catalog.js';
export { WorkplanError, type FieldIssue, type WorkplanErrorKind } from './errors.js';
export {
  systemClock,
  type AbortSignalLike,
  type Clock,
  type IdGenerator,
  type Page,
  type ReadOptions,
  type RecordRepository,
  type TextChange,
} from './ports.js';
export {
  assembleRecord,
  costCenter,
  workSchedule,
  type CatalogRecord,
  type CostCenter,
  type RecordBase,
  type RecordKind,
  type RecordParts,
  type WorkSchedule,
} from './record.js';
export {
  mapKinds,
  recordKinds,
  repositoriesOf,
  wrapRepositories,
  type Catalogs,
  type FieldOf,
  type KindName,
  type Repositories,
} from './kinds.js';
export { isAtExpectedRevision, revisionOf, type ExpectedRevisions } from './revision.js';
export { MAX_TEXT_LENGTH, checkText, uniquenessKey, type TextCheck, type TextRule } from './text-rules.js';
export { DEFAULT_MAX_PAGE_SIZE, createWorkplan, type Workplan, type WorkplanOptions } from './workplan.js';
