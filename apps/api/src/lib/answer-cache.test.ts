import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AnswerCache, acceptedEncoding, CachedAnswer } from './answer-cache';

const answer = (text: string) => new CachedAnswer(text);

describe('AnswerCache', () => {
  it('serves nothing before resume or while suspended, drops a read that raced a clear, expires', () => {
    const cache = new AnswerCache(1000);
    const x = answer('x');
    cache.set('1 a', x, cache.mark());
    expect(cache.get('1 a')).toBeUndefined();
    cache.resume();
    const mark = cache.mark();
    cache.clear();
    cache.set('1 a', x, mark);
    expect(cache.get('1 a')).toBeUndefined();
    cache.set('1 a', x, cache.mark(), 10_000);
    expect(cache.get('1 a', 10_900)).toBe(x);
    expect(cache.get('1 a', 11_000)).toBeUndefined();
    cache.set('1 a', x, cache.mark());
    cache.suspend();
    expect(cache.get('1 a')).toBeUndefined();
  });

  it("clears one company's answers and keeps the others'", () => {
    const cache = new AnswerCache(60_000);
    cache.resume();
    const ours = answer('ours');
    const theirs = answer('theirs');
    cache.set('1 /list', ours, cache.mark());
    cache.set('1 /list?limit=5', ours, cache.mark());
    cache.set('12 /list', theirs, cache.mark());
    cache.clearScope('1');
    expect(cache.get('1 /list')).toBeUndefined();
    expect(cache.get('1 /list?limit=5')).toBeUndefined();
    expect(cache.get('12 /list')).toBe(theirs);
    // A read of company 1 that began before its clear is not stored; one of company 12 is.
    const mark = cache.mark();
    cache.clearScope('1');
    cache.set('1 /list', ours, mark);
    cache.set('12 /list?x', theirs, mark);
    expect(cache.get('1 /list')).toBeUndefined();
    expect(cache.get('12 /list?x')).toBe(theirs);
    // Stored again after the clear, it is served again.
    cache.set('1 /list', ours, cache.mark());
    expect(cache.get('1 /list')).toBe(ours);
  });
});

describe('CachedAnswer', () => {
  const big = JSON.stringify({
    payload: Array.from({ length: 200 }, (_, id) => ({ id, name: `Device ${id}` })),
  });

  it('compresses once per encoding and decompresses to the same text', () => {
    const cached = answer(big);
    const br = cached.in('br');
    expect(br.encoding).toBe('br');
    expect(br.bytes.length).toBeLessThan(big.length / 4);
    expect(brotliDecompressSync(br.bytes).toString()).toBe(big);
    expect(cached.in('br').bytes).toBe(br.bytes);
    expect(gunzipSync(cached.in('gzip').bytes).toString()).toBe(big);
    expect(cached.in(undefined)).toEqual({ bytes: Buffer.from(big) });
  });

  it('sends a small answer as it is', () => {
    expect(answer('{"payload":[]}').in('br')).toEqual({ bytes: Buffer.from('{"payload":[]}') });
  });
});

describe('acceptedEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['*', 'gzip'],
    ['identity', undefined],
    ['gzip;q=0', undefined],
    [undefined, undefined],
  ])('%s -> %s', (header, expected) => {
    expect(acceptedEncoding(header)).toBe(expected);
  });
});
