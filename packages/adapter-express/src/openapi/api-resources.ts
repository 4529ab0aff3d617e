import { costCenters, workSchedules, type ResourceDescription } from '../resources.js';

/** What the API document says of one resource: the same description the routes are built from. */
export type ApiResource = ResourceDescription;

/** The two resources as the document describes them. */
export const apiResources: readonly ApiResource[] = [workSchedules, costCenters];
