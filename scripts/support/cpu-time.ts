import { readdirSync, readFileSync } from 'node:fs';
import { DATABASE_THREAD_NAME } from '../../src/server/platform/db/pglite-proxy';

// CPU time the service spends per request, by where it runs (Linux /proc): its request thread,
// its embedded database's thread (PGlite runs in a worker thread of the same process, named
// DATABASE_THREAD_NAME), its other threads (the garbage collector's helpers, I/O), and every PostgreSQL
// server process on the machine. Unlike requests per second, CPU time per request barely moves
// when other work shares the cores, so it shows what a change saved.
export type CpuSample = { request: number; database: number; other: number; postgres: number };
export type CpuSnapshot = CpuSample & { postgresByProcess: Map<string, number> };

const TICK_MS = 10;

function ticksOf(stat: string): { name: string; ticks: number } {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ticks: Number(fields[11]) + Number(fields[12]) };
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null; // gone meanwhile
  }
}

/** Ticks of every PostgreSQL server process, by process id (backends come and go). */
function postgresTicks(): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || read(`/proc/${pid}/comm`)?.trim() !== 'postgres') continue;
    const stat = read(`/proc/${pid}/stat`);
    if (stat) ticks.set(pid, ticksOf(stat).ticks);
  }
  return ticks;
}

/** CPU milliseconds used so far by the service process `pid`, and by PostgreSQL. */
export function cpuSample(pid: number): CpuSnapshot {
  const postgresByProcess = postgresTicks();
  const sample: CpuSnapshot = { request: 0, database: 0, other: 0, postgres: 0, postgresByProcess };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = read(`/proc/${pid}/task/${tid}/stat`);
    if (!stat) continue;
    const { name, ticks } = ticksOf(stat);
    const kind = tid === String(pid) ? 'request' : name === DATABASE_THREAD_NAME ? 'database' : 'other';
    sample[kind] += ticks * TICK_MS;
  }
  return sample;
}

/** CPU milliseconds per request between two samples. */
export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number): CpuSample {
  const per = (ms: number) => ms / Math.max(1, requests);
  // A PostgreSQL process that ended in between takes its last ticks with it (a little under).
  let postgres = 0;
  for (const [pid, ticks] of after.postgresByProcess) postgres += ticks - (before.postgresByProcess.get(pid) ?? 0);
  return {
    request: per(after.request - before.request),
    database: per(after.database - before.database),
    other: per(after.other - before.other),
    postgres: per(postgres * TICK_MS),
  };
}
