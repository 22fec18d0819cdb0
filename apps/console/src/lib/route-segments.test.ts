import { describe, expect, it } from 'vitest';
import { collectSegments } from './route-segments';

describe('collectSegments', () => {
  it('collects first segments through pathless layouts, skipping params and the catch-all', () => {
    const routes = [
      {
        path: '/',
        children: [
          { children: [{ path: 'login/reset' }, { path: 'login/:id?' }, { path: 'eula' }] },
          { path: 'create-account' },
          { children: [{ path: 'dashboard' }, { path: 'water/:id' }, { path: 'admin/clients' }] },
          { path: '*' },
        ],
      },
    ];
    expect(collectSegments(routes).sort()).toEqual([
      'admin',
      'create-account',
      'dashboard',
      'eula',
      'login',
      'water',
    ]);
  });
});
