import { readFileSync } from 'node:fs';

// A V8 .cpuprofile summed by where the time went: the share of samples per package (node
// modules by name, the app's bundle, Node internals, WebAssembly) and the busiest functions.
type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
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

/**
 * The thread's longest stretches without an idle sample (what an event loop's delay is made of),
 * each with the functions it spent its time in, self and inclusive of the app's own frames.
 */
export function longestBusyStretches(file: string, count = 5, minMs = 50): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (node: ProfileNode) =>
    `${node.callFrame.functionName || '(anonymous)'}  ${packageOf(node.callFrame.functionName, node.callFrame.url)}:${node.callFrame.lineNumber}`;
  type Stretch = { at: number; ms: number; samples: number[] };
  const stretches: Stretch[] = [];
  let current: Stretch | null = null;
  let clock = 0;
  profile.samples.forEach((id, index) => {
    const time = (profile.timeDeltas[index] ?? 0) / 1000;
    clock += time;
    if (nodes.get(id)!.callFrame.functionName === '(idle)') {
      if (current && current.ms >= minMs) stretches.push(current);
      current = null;
      return;
    }
    current ??= { at: clock, ms: 0, samples: [] };
    current.ms += time;
    current.samples.push(id);
  });
  return stretches
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .flatMap((stretch) => {
      const self = new Map<string, number>();
      const within = new Map<string, number>();
      for (const id of stretch.samples) {
        self.set(label(nodes.get(id)!), (self.get(label(nodes.get(id)!)) ?? 0) + 1);
        const seen = new Set<string>();
        for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
          const name = label(nodes.get(at)!);
          if (!seen.has(name) && name.includes('app bundle')) within.set(name, (within.get(name) ?? 0) + 1);
          seen.add(name);
        }
      }
      const share = (map: Map<string, number>) => top(map, stretch.samples.length, 6);
      return [
        `busy ${stretch.ms.toFixed(0)} ms from ${(stretch.at / 1000).toFixed(1)} s (${stretch.samples.length} samples):`,
        '  self:',
        ...share(self).map((line) => `    ${line}`),
        "  within the app's functions:",
        ...share(within).map((line) => `    ${line}`),
      ];
    });
}
