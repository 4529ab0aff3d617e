import { costCenter, workSchedule } from '@workplan/core';
import { describe, expect, it } from 'vitest';
import { tableNameOf } from './record-table.js';

describe('tableNameOf', () => {
  it('names a kind\'s table in snake_case, plural', () => {
    expect(tableNameOf(workSchedule)).toBe('work_schedules');
    expect(tableNameOf(costCenter)).toBe('cost_centers');
  });

  it.each(['', 'Work', 'work schedule', 'x; DROP TABLE y', 'wörk'])('refuses %j, not a plain SQL name', (name) => {
    expect(() => tableNameOf({ name, field: 'value' })).toThrow(/camelCase/u);
  });
});
