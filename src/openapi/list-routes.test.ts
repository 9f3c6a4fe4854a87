import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { isAdminRoute, listRoutes } from './list-routes.js';

describe('listRoutes', () => {
  it('lists each handler once, leaves middleware out, and folds a workspace prefix into the plain path', () => {
    const admin = new Hono();
    admin.use(async (_c, next) => next());
    admin.get('/trades/:id', (c) => c.text('one'));
    admin.post(
      '/reset',
      async (_c, next) => next(),
      (c) => c.text('reset'),
    );
    const app = new Hono();
    app.use('*', async (_c, next) => next());
    app.route('/_sandbox', admin);
    app.route('/w/:workspace/_sandbox', admin);
    app.all('/echo', (c) => c.text('any method'));
    expect(listRoutes(app)).toEqual([
      { method: 'GET', path: '/_sandbox/trades/:id' },
      { method: 'POST', path: '/_sandbox/reset' },
      { method: 'ALL', path: '/echo' },
    ]);
  });
});

describe('isAdminRoute', () => {
  it('is every route under /_sandbox but the dashboard page and its files', () => {
    expect(isAdminRoute({ method: 'GET', path: '/_sandbox/health' })).toBe(true);
    expect(isAdminRoute({ method: 'DELETE', path: '/_sandbox' })).toBe(true);
    expect(isAdminRoute({ method: 'GET', path: '/_sandbox/' })).toBe(false);
    expect(isAdminRoute({ method: 'GET', path: '/_sandbox' })).toBe(false);
    expect(isAdminRoute({ method: 'GET', path: '/_sandbox/assets/dashboard.js' })).toBe(false);
    expect(isAdminRoute({ method: 'POST', path: '/api/v1/trades/deposit/create' })).toBe(false);
  });
});
