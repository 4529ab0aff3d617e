import { Catalog } from './catalog.js';
import { type Clock, type IdGenerator, type RecordRepository, systemClock } from './ports.js';
import { costCenter, workSchedule } from './record.js';

/** The default and usual largest page of a list. */
export const DEFAULT_MAX_PAGE_SIZE = 1000;

export interface WorkplanOptions {
  readonly workSchedules: RecordRepository<'value'>;
  readonly costCenters: RecordRepository<'title'>;
  readonly ids: IdGenerator;
  readonly clock?: Clock;
  readonly maxPageSize?: number;
}

/** Both catalogs of the domain. */
export interface Workplan {
  readonly workSchedules: Catalog<'value'>;
  readonly costCenters: Catalog<'title'>;
}

/** Builds the work schedule and cost center catalogs over the given storage. */
export function createWorkplan(options: WorkplanOptions): Workplan {
  const shared = {
    ids: options.ids,
    clock: options.clock ?? systemClock,
    maxPageSize: options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE,
  };
  return {
    workSchedules: new Catalog({ ...shared, kind: workSchedule, repository: options.workSchedules }),
    costCenters: new Catalog({ ...shared, kind: costCenter, repository: options.costCenters }),
  };
}
