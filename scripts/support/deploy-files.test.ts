import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCompose, interpolate } from './compose';
import { envOf, healthcheckCommand, parseDockerfile } from './dockerfile';
import { copyBuildContext, ignoredBy, parseDockerignore } from './dockerignore';
import { localSite } from './nginx-balancer';
import { serviceCommand } from './service-process';

// The readers of the deploy rehearsal (scripts/deploy-rehearsal.ts), on the repository's own
// Dockerfile, compose.yaml, .dockerignore and deploy/nginx.conf and on the rules they rely on.
const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('.dockerignore', () => {
  it('reads patterns as Docker does: anchored at the root, ** across directories, the last match decides', () => {
    const rules = parseDockerignore('# comment\nnode_modules\n**/*.log\n/build/\ndocs/*.md\n!docs/KEEP.md\n');
    expect(ignoredBy(rules, 'node_modules')).toBe(true);
    expect(ignoredBy(rules, 'node_modules/next/package.json')).toBe(true);
    expect(ignoredBy(rules, 'src/node_modules')).toBe(false);
    expect(ignoredBy(rules, 'a/b/debug.log')).toBe(true);
    expect(ignoredBy(rules, 'debug.log')).toBe(true);
    expect(ignoredBy(rules, 'build/out.js')).toBe(true);
    expect(ignoredBy(rules, 'docs/GUIDE.md')).toBe(true);
    expect(ignoredBy(rules, 'docs/KEEP.md')).toBe(false);
    expect(ignoredBy(rules, 'docs/sub/GUIDE.md')).toBe(false);
  });

  it("leaves the repository's installed, built, local and secret files out of the context", () => {
    const rules = parseDockerignore(readFileSync('.dockerignore', 'utf8'));
    for (const path of [
      'node_modules/x',
      '.next/BUILD_ID',
      '.data/pglite',
      '.env',
      '.git/HEAD',
      'src/generated/prisma/client.ts',
    ])
      expect(ignoredBy(rules, path), path).toBe(true);
    for (const path of ['package.json', 'public/robots.txt', 'src/proxy.ts', 'prisma/schema.prisma', 'scripts/worker.ts'])
      expect(ignoredBy(rules, path), path).toBe(false);
  });

  it('copies a context by its rules, empty directories and modes included', () => {
    const root = mkdtempSync(join(tmpdir(), 'context-'));
    const copy = mkdtempSync(join(tmpdir(), 'copied-'));
    scratch.push(root, copy);
    mkdirSync(join(root, 'node_modules/x'), { recursive: true });
    mkdirSync(join(root, 'src/empty'), { recursive: true });
    writeFileSync(join(root, 'node_modules/x/index.js'), '');
    writeFileSync(join(root, 'src/run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(join(root, '.env'), 'SECRET=1');
    writeFileSync(join(root, '.dockerignore'), 'node_modules\n.env\n');
    expect(copyBuildContext(root, copy)).toBe(2);
    expect(() => readFileSync(join(copy, '.env'))).toThrow();
    expect(readFileSync(join(copy, 'src/run.sh'), 'utf8')).toBe('#!/bin/sh\n');
    expect(parseDockerignore(readFileSync(join(copy, '.dockerignore'), 'utf8'))).toHaveLength(2);
  });
});

describe('Dockerfile', () => {
  it("reads the repository's stages, the runtime stage's COPYs, user, HEALTHCHECK and CMD", () => {
    const [build, runtime] = parseDockerfile(readFileSync('Dockerfile', 'utf8'));
    expect(build!.name).toBe('build');
    // Both stages on the Node release package.json's engines names (24 LTS), the build's as the runtime's.
    const major = /\d+/.exec(
      (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node,
    )![0];
    expect([build!.image, runtime!.image]).toStrictEqual([`node:${major}-bookworm-slim`, `node:${major}-bookworm-slim`]);
    expect(build!.instructions.filter((each) => each.keyword === 'RUN').map((each) => each.text)[0]).toMatch(/^npm ci\b/);
    const copies = runtime!.instructions.filter((each) => each.keyword === 'COPY');
    expect(copies.every((each) => each.flags.from === 'build')).toBe(true);
    expect(copies.map((each) => each.args.slice(0, -1)).flat()).toContain('/app/public');
    expect(runtime!.instructions.find((each) => each.keyword === 'USER')!.args).toStrictEqual(['node']);
    // The command npm start runs (package.json), Node's options with it.
    expect(runtime!.instructions.find((each) => each.keyword === 'CMD')!.exec).toStrictEqual(serviceCommand());
    expect(serviceCommand()).toStrictEqual(['node', '--no-wasm-dynamic-tiering', 'server.js']);
    const healthcheck = runtime!.instructions.find((each) => each.keyword === 'HEALTHCHECK')!;
    expect(healthcheck.flags).toStrictEqual({ interval: '10s', timeout: '3s' });
    expect(healthcheckCommand(healthcheck).slice(0, 2)).toStrictEqual(['/bin/sh', '-c']);
    expect(envOf(runtime!.instructions.find((each) => each.keyword === 'ENV')!)).toStrictEqual({
      NODE_ENV: 'production',
      PORT: '3000',
    });
  });

  it('joins continued lines and skips comments', () => {
    const [stage] = parseDockerfile('FROM x AS one\n# note\nRUN a \\\n  && b\nENV A="x y" B=2\n');
    expect(stage!.instructions[0]!.text).toMatch(/^a\s+&& b$/);
    expect(envOf(stage!.instructions[1]!)).toStrictEqual({ A: 'x y', B: '2' });
  });
});

describe('compose.yaml', () => {
  it('fills in variables as compose does', () => {
    const variables = { SET: 'yes', EMPTY: '' };
    expect(interpolate('${SET} ${EMPTY:-fallback} ${EMPTY-kept} ${UNSET:-d} $$HOME', variables)).toBe('yes fallback  d $HOME');
    expect(() => interpolate('${UNSET:?set UNSET}', variables)).toThrow('set UNSET');
  });

  it("reads the repository's services with their merged environment, commands and healthchecks", () => {
    const services = parseCompose(readFileSync('compose.yaml', 'utf8'), {
      POSTGRES_PASSWORD: 'p',
      NEXTAUTH_SECRET: 'n'.repeat(32),
      METRICS_TOKEN: 'm'.repeat(16),
      VAULT_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
      VAULT_FINGERPRINT_KEY: Buffer.alloc(32, 2).toString('base64'),
    });
    expect(Object.keys(services).sort()).toStrictEqual(['balancer', 'postgres', 'service-1', 'service-2', 'worker']);
    expect(services['service-1']!.environment).toMatchObject({ WORKER_IN_SERVICE: 'false', METRICS_TOKEN: 'm'.repeat(16) });
    // The vault's keys are the same for every instance and the worker: a key file would be one container's.
    for (const name of ['service-1', 'service-2', 'worker']) {
      expect(services[name]!.environment.VAULT_KEYS).toBe(`k1:${Buffer.alloc(32, 1).toString('base64')}`);
    }
    expect(services['service-1']!.environment.DATABASE_URL).toBe('postgres://pay:p@postgres:5432/pay');
    expect(services.worker!.command).toStrictEqual(['node', 'node_modules/tsx/dist/cli.mjs', 'scripts/worker.ts']);
    expect(services.worker!.healthcheck).toBeUndefined();
    expect(services.postgres!.healthcheck).toStrictEqual(['pg_isready', '-U', 'pay']);
    expect(services.balancer!.ports).toStrictEqual(['8080:8080']);
  });
});

describe('deploy/nginx.conf', () => {
  it('gets local upstream addresses and port, and nothing else changes', () => {
    const site = readFileSync('deploy/nginx.conf', 'utf8');
    const local = localSite(
      site,
      { 'service-1:3000': '127.0.0.1:4001', 'service-2:3000': '127.0.0.1:4002' },
      { from: 8080, to: 4000 },
    );
    expect(local).toContain('server 127.0.0.1:4001 max_fails=3');
    expect(local).toContain('server 127.0.0.1:4002 max_fails=3');
    expect(local).toContain('listen 127.0.0.1:4000;');
    expect(local.replace(/127\.0\.0\.1:400\d/g, '')).toBe(site.replace(/service-[12]:3000|8080/g, ''));
    expect(() => localSite(site, { 'service-3:3000': 'x' }, { from: 8080, to: 4000 })).toThrow('no upstream server');
  });
});
