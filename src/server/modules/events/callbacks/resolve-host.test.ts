import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedResolver, HostResolutionError } from './resolve-host';

// A callback host's resolution is bounded in time, and off libuv's thread pool.

let silent: Socket;
let port: number;

beforeAll(async () => {
  // A name server that reads every question and never answers.
  silent = createSocket('udp4');
  silent.on('message', () => undefined);
  await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
  port = silent.address().port;
});

afterAll(() => {
  silent.close();
});

describe('boundedResolver', () => {
  it('gives up on a host whose name server never answers, within its bound', async () => {
    const resolve = boundedResolver(300, [`127.0.0.1:${port}`]);
    const started = performance.now();
    await expect(resolve('merchant.example')).rejects.toThrow(HostResolutionError);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('answers IP literals and localhost names without asking anyone', async () => {
    const resolve = boundedResolver(300, [`127.0.0.1:${port}`]);
    expect(await resolve('192.0.2.7')).toEqual(['192.0.2.7']);
    expect(await resolve('[2001:db8::1]')).toEqual(['2001:db8::1']);
    expect(await resolve('localhost')).toEqual(['127.0.0.1', '::1']);
    expect(await resolve('hooks.localhost')).toEqual(['127.0.0.1', '::1']);
  });

  it('keeps many hung lookups from holding the thread pool: a file read still answers at once', async () => {
    const resolve = boundedResolver(2_000, [`127.0.0.1:${port}`]);
    const hung = Array.from({ length: 16 }, (_, index) => resolve(`host-${index}.example`).catch(() => 'gave up'));
    const { readFile } = await import('node:fs/promises');
    const started = performance.now();
    await readFile(new URL(import.meta.url));
    expect(performance.now() - started).toBeLessThan(500);
    expect(await Promise.all(hung)).toEqual(Array.from({ length: 16 }, () => 'gave up'));
  });
});
