import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeFolder } from './make-folder.js';
import { useTempFiles } from './test-support/temp-files.js';

const files = useTempFiles();

describe('makeFolder', () => {
  it('makes every missing level, and leaves an existing folder alone', () => {
    const folder = join(files.folder(), 'a', 'b', 'c');
    makeFolder(folder);
    expect(statSync(folder).isDirectory()).toBe(true);
    expect(() => {
      makeFolder(folder);
    }).not.toThrow();
  });

  it('throws ENOTDIR under a regular file', () => {
    const file = join(files.folder(), 'file.txt');
    writeFileSync(file, '');
    expect(() => {
      makeFolder(join(file, 'a', 'b'));
    }).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });

  it.runIf(existsSync('/proc/self'))('throws, rather than spinning, where mkdir answers ENOENT under a parent that exists', () => {
    expect(() => {
      makeFolder('/proc/workplan/a/b');
    }).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
