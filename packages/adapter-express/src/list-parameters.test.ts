import { describe, expect, it } from 'vitest';
import { HttpFailure } from './http-failure.js';
import { listParametersOf, listQueryStringOf } from './list-parameters.js';

const refused = (target: string) => () => listParametersOf(target);

describe('listParametersOf', () => {
  it('reads nothing from a target without a query, or with only parameters it does not know', () => {
    expect(listParametersOf('/scales/10')).toEqual({});
    expect(listParametersOf('/scales?')).toEqual({});
    expect(listParametersOf('/scales?Q=x&search=y&sorting=z&foo[bar]=1&%ZZ=1&&=')).toEqual({});
  });

  it('reads q, sort, count and after, percent-encoded UTF-8 with + as a space', () => {
    expect(listParametersOf('/scales?q=manuten%C3%A7%C3%A3o+el%C3%A9trica&sort=-value&count=true&after=abc_-')).toEqual({
      q: 'manutenção elétrica',
      sort: '-value',
      count: true,
      after: 'abc_-',
    });
    expect(listParametersOf('/scales?count=true&q=%2B%26%3D')).toEqual({ count: true, q: '+&=' });
    expect(() => listParametersOf('/scales?count=false')).toThrow(expect.objectContaining({ code: 'INVALID_QUERY' }));
    expect(listParametersOf('/scales?q&sort=')).toEqual({ q: '', sort: '' });
  });

  const once = (parameter: string) => ({ parameter, rule: { kind: 'once' } });
  const encoded = (parameter: string) => ({ parameter, rule: { kind: 'percentEncoded' } });
  const count = { parameter: 'count', rule: { kind: 'oneOf', values: ['true'] } };
  it.each([
    ['q twice', '?q=a&q=a', once('q')],
    ['sort twice', '?sort=value&sort=-value', once('sort')],
    ['after twice', '?after=a&after=a', once('after')],
    ['count twice', '?count=true&count=true', once('count')],
    ['q as an object', '?q[a]=1', once('q')],
    ['q as an array', '?q[]=1', once('q')],
    ['an encoded bracket', '?q%5Ba%5D=1', once('q')],
    ['q that is not UTF-8', '?q=%FF', encoded('q')],
    ['q with a lone surrogate', '?q=%ED%A0%80', encoded('q')],
    ['q with malformed percent-encoding', '?q=%E0%A4%A', encoded('q')],
    ['count=yes', '?count=yes', count],
    ['count=TRUE', '?count=TRUE', count],
    ['count without a value', '?count', count],
  ])('refuses %s as INVALID_QUERY, naming the parameter and what it takes', (_label, query, refusal) => {
    expect(refused(`/scales${query}`)).toThrow(HttpFailure);
    expect(refused(`/scales${query}`)).toThrow(expect.objectContaining({ code: 'INVALID_QUERY', refusal }));
  });

  it('writes back what it reads, each value percent-encoded, in the order q, sort, count, after', () => {
    const parameters = { after: 'abc', count: true, sort: 'value', q: 'P&D + 50% #1 ação' } as const;
    const written = listQueryStringOf(parameters);
    expect(written).toBe('?q=P%26D%20%2B%2050%25%20%231%20a%C3%A7%C3%A3o&sort=value&count=true&after=abc');
    expect(listParametersOf(`/scales${written}`)).toEqual(parameters);
    expect(listQueryStringOf({})).toBe('');
  });
});
