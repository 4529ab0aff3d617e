import { revisionOf, workSchedule } from '@workplan/core';
import { buildRecord } from '@workplan/testing';
import { describe, expect, it } from 'vitest';
import { entityTagOf, expectedRevisionsOf, noneMatchHits } from './entity-tags.js';

const record = buildRecord(workSchedule, { text: '12x36' });
const tag = entityTagOf(record);
const revision = revisionOf(record);

describe('the tags of If-Match and If-None-Match', () => {
  // RFC 9110, 5.6.1.2: a recipient accepts empty list elements, and a client that sends two
  // header lines, the first empty, reaches Node as one line starting with a comma.
  it.each([`, ${tag}`, `"a",,${tag}`, `"a", , ${tag} ,`, `${tag},`, ` ,, ${tag}`])('reads every tag of %j, empty elements aside', (header) => {
    expect(expectedRevisionsOf(header)).toContain(revision);
    expect(noneMatchHits(header, record)).toBe(true);
  });

  it('drops a weak tag from If-Match, and matches it in If-None-Match', () => {
    expect(expectedRevisionsOf(`W/${tag}, "b"`)).toEqual(['b']);
    expect(noneMatchHits(`"b", W/${tag}`, record)).toBe(true);
  });

  it('reads no tag where the list holds something that is not one, so If-Match matches no record', () => {
    for (const header of ['', ' ', 'abc', `abc, ${tag}`, `"a" b, ${tag}`, `*, ${tag}`]) {
      expect(expectedRevisionsOf(header), header).not.toContain(revision);
      expect(noneMatchHits(header, record), header).toBe(false);
    }
  });

  it('takes a tag that holds a comma whole', () => {
    expect(expectedRevisionsOf('"a,b", "c"')).toEqual(['a,b', 'c']);
  });

  it('reads * alone as any record', () => {
    expect(expectedRevisionsOf(' * ')).toBeUndefined();
    expect(noneMatchHits('*', record)).toBe(true);
  });
});
