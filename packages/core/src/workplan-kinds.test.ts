import { describe, expect, it } from 'vitest';
import { seedKinds, type KindDescription } from './kind-description.js';
import { type ChangeLog, type RecordRepository } from './ports.js';
import { createWorkplan } from './workplan.js';

// Only what a catalog's construction touches: none of these tests writes or reads.
const repository = {} as RecordRepository<string>;
const changes = {} as ChangeLog;

const department: KindDescription<'name'> = {
  name: 'department',
  field: 'name',
  schema: 'Department',
  singular: 'department',
  plural: 'departments',
  one: 'área',
  many: 'áreas',
  gender: 'feminine',
  label: 'Nome',
  sample: 'Logística',
  slug: 'areas',
  messages: { create: 'c', update: 'u', find: 'f', list: 'l', delete: 'd' },
};

describe('createWorkplan and the kinds it serves', () => {
  it('serves the seed kinds when told no other, and says which', () => {
    const workplan = createWorkplan({ repositories: { workSchedules: repository, costCenters: repository }, changes });
    expect(Object.keys(workplan.kinds)).toEqual(['workSchedules', 'costCenters']);
    expect(workplan.workSchedules.kind.field).toBe('value');
  });

  it('makes one catalog for each kind it is given, and none other', () => {
    const workplan = createWorkplan({ kinds: { departments: department }, repositories: { departments: repository }, changes });
    expect(workplan.departments.kind).toBe(department);
    expect(workplan).not.toHaveProperty('workSchedules');
  });

  it('refuses a kind named like one of its own members, and a kind with no repository', () => {
    expect(() => createWorkplan({ kinds: { changes: department }, repositories: { changes: repository }, changes })).toThrow(/may not be named "changes"/u);
    const kinds = { departments: department };
    expect(() => createWorkplan({ kinds, repositories: {}, changes } as unknown as Parameters<typeof createWorkplan<typeof kinds>>[0])).toThrow(/no repository/u);
  });

  it.each([
    ['its name', { name: 'workSchedule' }, /"workSchedule" names two kinds/u],
    ['a path word', { plural: 'scales' }, /"scales" names two kinds/u],
    ['a path word, one’s singular another’s plural', { singular: 'costCenters' }, /"costCenters" names two kinds/u],
    ['its console address', { slug: 'escalas' }, /"escalas" names two kinds/u],
    ['its schema', { schema: 'CostCenter' }, /"CostCenter" names two kinds/u],
  ])('refuses a kind that shares %s with another', (_label, shared, message) => {
    const kinds = { ...seedKinds, departments: { ...department, ...shared } };
    const repositories = { workSchedules: repository, costCenters: repository, departments: repository };
    expect(() => createWorkplan({ kinds, repositories, changes })).toThrow(message);
  });
});
