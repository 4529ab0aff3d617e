import { notACursor, type ListCursor } from '@workplan/core';
import { describe, expect, it } from 'vitest';
import { cursorOfToken, cursorToken } from './list-cursor.js';

const cursor: ListCursor = ['costCenter', 'text', true, 'manutencao', 'manutencao eletrica 😀', '019a4b5c-6d7e-7f80-9a1b-2c3d4e5f6a7b'];

describe('cursor tokens', () => {
  it('are base64url, with nothing a URL must escape, and read back as the cursor they hold', () => {
    const token = cursorToken(cursor);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/u);
    expect(cursorOfToken(token)).toEqual(cursor);
  });

  it.each([
    ['an empty token', ''],
    ['characters outside base64url', 'abc!'],
    ['padding', `${cursorToken(cursor)}=`],
    ['standard base64', Buffer.from(JSON.stringify(['é?>'])).toString('base64')],
    // `[12]` is WzEyXQ; the last character's low bits are spare, and Node reads WzEyXR as `[12]` too.
    ['a last character with bits the encoding leaves zero', 'WzEyXR'],
    ['a token cut short', cursorToken(cursor).slice(0, -3)],
    ['bytes that are not UTF-8', Buffer.from([0x5b, 0xff, 0x5d]).toString('base64url')],
    ['text that is not JSON', Buffer.from('[1,').toString('base64url')],
  ])('refuse %s as the core refuses a cursor that is not one of the list (INVALID_QUERY)', (_label, token) => {
    expect(() => cursorOfToken(token)).toThrow(expect.objectContaining({ kind: 'invalidQuery', refusal: notACursor().refusal }));
  });

  it('leave JSON that is no cursor of the list to the core, which knows what its cursors hold', () => {
    expect(cursorOfToken(Buffer.from('{"a":1}').toString('base64url'))).toEqual({ a: 1 });
  });
});
