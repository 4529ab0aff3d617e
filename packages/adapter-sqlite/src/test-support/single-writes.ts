import type { SQLInputValue } from 'node:sqlite';
import { type SqliteWriter } from '../sqlite-writer.js';
import { type WriteResult } from '../write-statements.js';

/** Runs one statement through `writer`, a write of one step; resolves its result. */
export async function runOn(writer: SqliteWriter, sql: string, params: readonly SQLInputValue[]): Promise<WriteResult | undefined> {
  const [result] = await writer.write([{ method: 'run', sql, params }]);
  return result;
}

/** Runs one statement returning rows through `writer`; resolves its result, with its first row. */
export async function getOn(writer: SqliteWriter, sql: string, params: readonly SQLInputValue[]): Promise<WriteResult | undefined> {
  const [result] = await writer.write([{ method: 'get', sql, params }]);
  return result;
}
