import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nextMethodsOf } from './next-routes';

// The table of Next's route handlers against the files: each route.ts under src/app, made a
// path (groups dropped, a dynamic segment filled), must get exactly the methods it exports.
const APP = join(process.cwd(), 'src', 'app');
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function routeFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return routeFiles(path);
    return entry.name === 'route.ts' ? [path] : [];
  });
}

function pathOf(file: string): string {
  const segments = relative(APP, file).split(sep).slice(0, -1);
  const kept = segments.filter((segment) => !/^\(.*\)$/.test(segment));
  return `/${kept.map((segment) => (segment.startsWith('[') ? 'x' : segment)).join('/')}`;
}

function exportedMethods(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const named = [...source.matchAll(/export (?:async )?(?:function|const) ([A-Z]+)\b/g)].map((match) => match[1]!);
  const listed = [...source.matchAll(/export \{([^}]*)\}/g)].flatMap((match) =>
    match[1]!.split(',').map((part) =>
      part
        .trim()
        .split(/\s+as\s+/)
        .pop()!,
    ),
  );
  return [...named, ...listed].filter((name) => METHODS.includes(name)).sort();
}

describe('the methods of Next’s paths', () => {
  const files = routeFiles(APP);

  it('finds the route handlers', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  it.each(files.map((file) => [pathOf(file), file]))('%s gets the methods its file exports', (path, file) => {
    expect([...(nextMethodsOf(path) ?? [])].sort()).toEqual(exportedMethods(file));
  });

  it('reads pages and static files with GET alone', () => {
    for (const path of ['/', '/login', '/operations/abc', '/pay/abc', '/robots.txt']) {
      expect(nextMethodsOf(path)).toEqual(['GET']);
    }
    // Next's own machinery answers for itself (the development overlay POSTs there).
    expect(nextMethodsOf('/_next/static/chunk.js')).toBeNull();
    expect(nextMethodsOf('/__nextjs_original-stack-frames')).toBeNull();
  });
});
