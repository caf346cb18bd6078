import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// One service instance for the benchmark and the fault tests: `npm start`'s command on a port with the given environment,
// ready once /api/health answers, and the resident memory of its process tree.
export type ServiceProcess = { origin: string; child: ChildProcess; stop: () => Promise<void> };

export type StartOptions = {
  /** Where its stdout and stderr go (appended); without one, stdout is dropped and stderr shown. */
  logFile?: string;
  /** Options of the node process (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /** Another command that starts it on PORT (the image's CMD); `node` is this Node. */
  command?: string[];
  /** The directory it runs in (the project by default). */
  cwd?: string;
  /** Runs it as this user (the image's unprivileged user in the deploy rehearsal). */
  user?: { uid: number; gid: number };
  /** Only `environment`, not this process's: a container's environment is its own. */
  cleanEnvironment?: boolean;
};

/**
 * The service's command as `npm start` runs it (package.json's start script is its one
 * statement, which the image's CMD repeats): Node's options, then server.js. `nodeArgs` go among
 * Node's options.
 */
export function serviceCommand(cwd = '.', nodeArgs: string[] = []): string[] {
  const { scripts } = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const start = scripts.start.split(' ');
  return [...start.slice(0, -1), ...nodeArgs, start.at(-1)!];
}

/**
 * V8's JIT-page registry can abort a process that instantiates PGlite's WebAssembly ("Check
 * failed: jit_page…", SIGTRAP; nodejs/node#64500, electric-sql/pglite#1053, no fix in Node 24):
 * rarely, and at start-up. A supervisor would start the service again; so does this, once, when
 * it dies of SIGTRAP before it is ready. Any other exit is the service's own failure.
 */
export async function startService(
  port: number,
  environment: Record<string, string>,
  options: StartOptions = {},
): Promise<ServiceProcess> {
  try {
    return await startOnce(port, environment, options);
  } catch (error) {
    if (!(error instanceof StartUpTrap)) throw error;
    console.error(`the service on port ${port} aborted at start-up (SIGTRAP, nodejs/node#64500): starting it again`);
    return startOnce(port, environment, options);
  }
}

class StartUpTrap extends Error {}

async function startOnce(
  port: number,
  environment: Record<string, string>,
  { logFile, nodeArgs = [], command, cwd, user, cleanEnvironment = false }: StartOptions,
): Promise<ServiceProcess> {
  const log = logFile === undefined ? undefined : openSync(logFile, 'a');
  const [program, ...args] = command ?? serviceCommand(cwd, nodeArgs);
  const child = spawn(program === 'node' ? process.execPath : program!, args, {
    cwd,
    env: { ...(cleanEnvironment ? {} : process.env), ...environment, PORT: String(port) } as NodeJS.ProcessEnv,
    stdio: log === undefined ? ['ignore', 'ignore', 'inherit'] : ['ignore', log, log],
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
  });
  if (log !== undefined) closeSync(log);
  const origin = `http://localhost:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.signalCode === 'SIGTRAP') throw new StartUpTrap(`the service on port ${port} aborted (SIGTRAP)`);
    if (child.exitCode !== null) throw new Error(`the service on port ${port} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the service on port ${port} did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    origin,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function childrenOf(pid: number): number[] {
  const path = `/proc/${pid}/task/${pid}/children`;
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Resident memory of the process and its children now, and their peaks, in MiB (Linux /proc). */
export function memoryMiB(pid: number): { rss: number; peak: number } {
  const pids = [pid];
  for (let index = 0; index < pids.length; index += 1) pids.push(...childrenOf(pids[index]!));
  const sum = (field: 'VmRSS' | 'VmHWM') => pids.reduce((total, each) => total + statusKb(each, field), 0) / 1024;
  return { rss: sum('VmRSS'), peak: sum('VmHWM') };
}

/** Samples the tree's resident memory while `work` runs; returns its result and the highest sample. */
export async function withMemorySampling<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakMiB: number }> {
  let peak = memoryMiB(pid).rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, memoryMiB(pid).rss);
  }, 100);
  try {
    const result = await work();
    return { result, peakMiB: Math.max(peak, memoryMiB(pid).rss) };
  } finally {
    clearInterval(timer);
  }
}
