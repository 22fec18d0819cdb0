import { describe, expect, it } from 'vitest';
import { formatSort, parseSort } from './url-sorting';

const fallback = [{ id: 'name', desc: false }];

describe('sorting in the URL', () => {
  it.each([
    [null, fallback],
    ['', fallback],
    ['email', [{ id: 'email', desc: false }]],
    ['-last_login', [{ id: 'last_login', desc: true }]],
    [
      'name,-id',
      [
        { id: 'name', desc: false },
        { id: 'id', desc: true },
      ],
    ],
    ['<script>', fallback],
  ])('%j -> %j', (value, expected) => {
    expect(parseSort(value, fallback)).toEqual(expected);
  });
  it('round-trips', () => {
    const entries = [
      { id: 'name', desc: true },
      { id: 'id', desc: false },
    ];
    expect(parseSort(formatSort(entries), fallback)).toEqual(entries);
  });
});
