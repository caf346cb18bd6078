import { describe, expect, it } from 'vitest';
import { env } from '@/env';
import { PAYMENT_METHODS } from '@/server/core/domain/states';
import { testContext } from '@tests/support/connector-context';
import { memorySandboxStore } from '@tests/support/memory-sandbox-store';
import { withTestDatabase } from '@tests/support/procedure-test-support';
import { createRegistry, registryFor, sandboxStoreFor } from './registry';

const IDS = [
  'sandbox-acquirer-a',
  'sandbox-acquirer-b',
  'sandbox-yape',
  'sandbox-yape-b',
  'sandbox-bank-transfer',
  'sandbox-cuotealo',
  'sandbox-pagoefectivo',
  'sandbox-qr',
];

describe('createRegistry', () => {
  const registry = createRegistry(memorySandboxStore());

  it('names every connector once, in the platform default order', () => {
    expect(registry.connectors.map((connector) => connector.id)).toEqual(IDS);
  });

  it.each(PAYMENT_METHODS)('has a %s connector', (method) => {
    expect(registry.forMethod(method).length).toBeGreaterThan(0);
    for (const connector of registry.forMethod(method)) expect(connector.methods).toContain(method);
  });

  it('orders each method as docs/ORCHESTRATION.md 2 does by default', () => {
    const ids = (method: (typeof PAYMENT_METHODS)[number]) => registry.forMethod(method).map((connector) => connector.id);
    expect(ids('CARD')).toEqual(['sandbox-acquirer-a', 'sandbox-acquirer-b']);
    expect(ids('YAPE')).toEqual(['sandbox-yape', 'sandbox-yape-b']);
    expect(ids('BANK_TRANSFER')).toEqual(['sandbox-bank-transfer']);
    expect(ids('CUOTEALO')).toEqual(['sandbox-cuotealo']);
    expect(ids('PAGOEFECTIVO')).toEqual(['sandbox-pagoefectivo']);
    expect(ids('QR')).toEqual(['sandbox-qr']);
  });

  it('finds a connector by id, and nothing for an unknown or retired id', () => {
    expect(registry.byId('sandbox-acquirer-b')?.name).toBe('Sandbox card acquirer B');
    expect(registry.byId('sandbox-card')).toBeUndefined();
  });

  it('sends a stored transaction to its connector, or to its method first one when it names none', () => {
    expect(registry.forTransaction({ connectorId: 'sandbox-acquirer-b', method: 'CARD' }).id).toBe('sandbox-acquirer-b');
    expect(registry.forTransaction({ connectorId: null, method: 'CARD' }).id).toBe('sandbox-acquirer-a');
    expect(registry.forTransaction({ connectorId: null, method: 'YAPE' }).id).toBe('sandbox-yape');
    expect(() => registry.forTransaction({ connectorId: 'sandbox-card', method: 'CARD' })).toThrow('No connector sandbox-card');
  });

  it('gives every connector SANDBOX_TIMEOUT_MS unless told otherwise', () => {
    for (const connector of registry.connectors) expect(connector.timeoutMs).toBe(env().SANDBOX_TIMEOUT_MS);
    for (const connector of createRegistry(memorySandboxStore(), { timeoutMs: 75 }).connectors) {
      expect(connector.timeoutMs).toBe(75);
    }
  });

  it('shares one store: a mode set there applies to that registry only', async () => {
    const store = memorySandboxStore();
    const shared = createRegistry(store);
    await store.setMode('sandbox-acquirer-a', 'outage');
    const request = { method: 'CARD', pan: '4111111111111111', expiry: '1230', securityCode: '123' } as const;
    expect((await shared.byId('sandbox-acquirer-a')!.authorize(request, testContext())).outcome).toBe('technical_failure');
    expect((await shared.byId('sandbox-acquirer-b')!.authorize(request, testContext())).outcome).toBe('approved');
    expect((await registry.byId('sandbox-acquirer-a')!.authorize(request, testContext())).outcome).toBe('approved');
  });
});

describe('registryFor', () => {
  const fixture = withTestDatabase();

  it('makes one registry and one store per database handle', () => {
    expect(registryFor(fixture.db.prisma)).toBe(registryFor(fixture.db.prisma));
    expect(sandboxStoreFor(fixture.db.prisma)).toBe(sandboxStoreFor(fixture.db.prisma));
  });

  it('applies a mode set through the handle store at once, and keeps decisions in the database', async () => {
    const registry = registryFor(fixture.db.prisma);
    await sandboxStoreFor(fixture.db.prisma).setMode('sandbox-yape', 'declining');
    const request = { method: 'YAPE', phone: { countryCode: '+51', subscriber: '987654321' }, otp: '123456' } as const;
    const context = testContext({ transactionId: 'b3c1f2de-0000-4000-8000-00000000000a' });
    expect((await registry.byId('sandbox-yape')!.authorize(request, context)).outcome).toBe('declined');
    expect((await registry.byId('sandbox-yape-b')!.authorize(request, context)).outcome).toBe('approved');
    const rows = await fixture.db.prisma.sandboxProcessorRecord.findMany({
      where: { reference: context.transactionId },
      orderBy: { connectorId: 'asc' },
      select: { connectorId: true, outcome: true, code: true },
    });
    expect(rows).toStrictEqual([
      { connectorId: 'sandbox-yape', outcome: 'declined', code: '05' },
      { connectorId: 'sandbox-yape-b', outcome: 'approved', code: '00' },
    ]);
    await sandboxStoreFor(fixture.db.prisma).setMode('sandbox-yape', 'normal');
  });
});
