import { readFileSync } from 'node:fs';

// A V8 .cpuprofile summed by where the time went: the share of samples per package (node
// modules by name, the app's bundle, Node internals, WebAssembly) and the busiest functions.
type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

function packageOf(functionName: string, url: string): string {
  if (functionName === '(idle)') return '(idle: waiting)';
  if (functionName === '(garbage collector)') return '(garbage collector)';
  if (!url) return '(native code)';
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (module) return module[1]!;
  if (url.includes('.next/server/')) return 'app bundle (our code, Next runtime, tRPC, zod)';
  if (url.startsWith('wasm://')) return 'WebAssembly';
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\/.*\//, '');
}

function top(totals: Map<string, number>, all: number, count: number): string[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, time]) => `${((100 * time) / all).toFixed(1).padStart(5)} %  ${name}`);
}

export function summarizeProfile(file: string, count = 15): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, index) => {
    const time = profile.timeDeltas[index] ?? 0;
    const frame = nodes.get(id)!.callFrame;
    const name = packageOf(frame.functionName, frame.url);
    all += time;
    byPackage.set(name, (byPackage.get(name) ?? 0) + time);
    const key = `${frame.functionName || '(anonymous)'}  ${name}:${frame.lineNumber}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + time);
  });
  return [
    `${(all / 1e6).toFixed(1)} s of samples`,
    'by package:',
    ...top(byPackage, all, count),
    'by function:',
    ...top(byFunction, all, count),
  ];
}
