import { describe, expect, it } from 'vitest';
import { deleteRequests, idIn, uniqueValue } from './workloads.js';

describe('idIn', () => {
  it('reads the record id from a success envelope', () => {
    const body = '{"success":true,"data":{"id":"0190a0b0-0000-7000-8000-000000000001","value":"x"}}';
    expect(idIn(body)).toBe('0190a0b0-0000-7000-8000-000000000001');
  });

  it('finds nothing in an error envelope', () => {
    expect(idIn('{"success":false,"error":{"code":"CONFLICT","existingId":"abc"}}')).toBeUndefined();
  });
});

describe('uniqueValue', () => {
  it('never repeats, so no create or update of a run meets a 409', () => {
    const values = Array.from({ length: 1000 }, uniqueValue);
    expect(new Set(values).size).toBe(1000);
  });
});

describe('deleteRequests', () => {
  it('takes each id from the pool once', () => {
    const pool = ['one', 'two'];
    const [request] = deleteRequests(pool);
    const setup = request?.setupRequest;
    if (typeof setup !== 'function') throw new Error('expected a setupRequest function');
    const paths = [setup({}, {}).path, setup({}, {}).path];
    expect([paths, pool]).toEqual([['/api/v1/scale/two', '/api/v1/scale/one'], []]);
  });
});
