import { createMemoryStorage } from '@workplan/adapter-memory';
import { createWorkplan } from '@workplan/core';
import { department } from '@workplan/testing';
import { describe, expect, it } from 'vitest';
import { httpResourcesOf } from './resources.js';

describe('httpResourcesOf', () => {
  it.each(['changes', 'webhooks'])('refuses a kind whose path word is the API’s own %s', (word) => {
    for (const words of [{ plural: word }, { singular: word }]) {
      const kinds = { departments: { ...department, ...words } };
      const storage = createMemoryStorage({ kinds });
      const workplan = createWorkplan({ kinds, repositories: storage.repositories, changes: storage.changes });
      expect(() => httpResourcesOf(workplan)).toThrow(`a kind of record may not take the path word "${word}": /api/v1/${word} is the API's own`);
    }
  });
});
