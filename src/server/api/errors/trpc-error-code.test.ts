import { TRPCError } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { describe, expect, it } from 'vitest';
import { ERROR_KINDS, type ErrorKind } from '@/server/core/domain/errors';
import { appRouter } from '../routers/app-router';

describe('the tRPC code of an error kind', () => {
  it('is one tRPC answers with the same HTTP status', () => {
    for (const [kind, { trpc }] of Object.entries(ERROR_KINDS)) {
      expect([kind, getHTTPStatusCodeFromError(new TRPCError({ code: trpc }))]).toEqual([
        kind,
        ERROR_KINDS[kind as ErrorKind].status,
      ]);
    }
  });

  it('is what the error of a refused call carries (it was -32603, a server fault, for every AppError)', async () => {
    const response = await fetchRequestHandler({
      endpoint: '/api/trpc',
      req: new Request('http://localhost/api/trpc/console.overview'),
      router: appRouter,
      createContext: () => ({ headers: new Headers(), requestId: 't', prisma: {} as never }),
    });
    const body = (await response.json()) as { error: { code: number; data: { kind: string } } };
    expect(body.error).toMatchObject({ code: -32001, data: { kind: 'UNAUTHENTICATED' } });
  });
});
