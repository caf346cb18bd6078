import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRouteOf, isApiPath } from './api-routes';

afterEach(() => vi.unstubAllEnvs());

describe('which server answers a path', () => {
  it.each([
    '/api/charges',
    '/api/charges/M1/op-1',
    '/api/refund?merchant_code=M1',
    '/api/openapi.json',
    '/api/webhooks/public-key',
    '/api/%zz',
    '/api/health/deeper',
    '/api/trpc/console.x/deeper',
    '/api/metrics/deeper',
    '/oauth/token',
    '/oauth/.well-known/jwks.json',
    '/oauth/anything',
  ])('%s is the API’s own', (path) => {
    expect(isApiPath(path.split('?')[0]!)).toBe(true);
  });

  it.each([
    '/',
    '/login',
    '/operations/1',
    '/api/health',
    '/api/metrics',
    '/api/trpc/console.operations',
    '/api/auth/session',
    '/api',
    '/apix/charges',
  ])('%s is Next’s', (path) => {
    expect(isApiPath(path)).toBe(false);
  });

  it.each([
    ['false', true],
    ['true', false],
  ])('with BENCH_ROUTES=%s the bare benchmark route is the API’s: %s', async (setting, owned) => {
    vi.resetModules();
    vi.stubEnv('BENCH_ROUTES', setting);
    const fresh = await import('./api-routes');
    expect(fresh.isApiPath('/api/bench/baseline')).toBe(owned);
  });
});

describe('the route of an API path', () => {
  it.each([
    ['/oauth/token', 'token', ['POST']],
    ['/oauth/.well-known/jwks.json', 'jwks', ['GET']],
    // {auth_url}'s paths under {base_url} too (the document lists both servers for them).
    ['/api/token', 'token', ['POST']],
    ['/api/.well-known/jwks.json', 'jwks', ['GET']],
    ['/api/.well-known/oauth-authorization-server', 'oauth-metadata', ['GET']],
    ['/.well-known/oauth-authorization-server/oauth', 'oauth-metadata', ['GET']],
    ['/api/openapi.json', 'openapi', ['GET']],
    ['/api/webhooks/public-key', 'callback-key', ['GET']],
    ['/api/charges', 'charges', ['POST']],
    ['/api/charges/M1/op-1', 'charges', ['DELETE']],
    ['/api/charges/M1/op-1/0b0e1c1e-0000-4000-8000-000000000000', 'charges', ['GET']],
    ['/api/refund', 'refund', ['GET', 'POST']],
    ['/api/nothing', 'unknown', []],
    ['/oauth/nothing', 'unknown', []],
  ])('%s is %s, serving %j', (path, name, methods) => {
    const route = apiRouteOf(path);
    expect(route.name).toBe(name);
    expect([...route.methods].sort()).toEqual(methods);
  });
});
