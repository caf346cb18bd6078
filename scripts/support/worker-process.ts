import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';

// The standalone worker (`npm run worker`) as a process of its own for the tests and the deploy
// rehearsal. tsx runs the script in a child process and passes SIGTERM on to it, so a stop
// signals tsx (as `docker stop` signals a container's first process); the worker runs in a
// process group of its own, so that kill -9 kills the whole group, the worker itself with tsx,
// as a container engine does when it kills the container.
export type WorkerProcess = {
  child: ChildProcess;
  /** SIGTERM and the wait for a clean exit (the worker finishes its deliveries). */
  stop: () => Promise<void>;
  /** SIGKILL of every process of the worker, as a crash or an OOM kill would. */
  killHard: () => Promise<void>;
};

/** compose.yaml's worker command; `node` is this Node. */
export const WORKER_COMMAND = ['node', 'node_modules/tsx/dist/cli.mjs', 'scripts/worker.ts'];

export type WorkerOptions = {
  /** Where its stdout and stderr go (appended); without one, stdout is dropped and stderr shown. */
  logFile?: string;
  /** The directory it runs in (the project by default). */
  cwd?: string;
  command?: string[];
  /** Run it as this user (the deploy rehearsal's unprivileged user). */
  uid?: number;
  gid?: number;
  /** Only `environment`, not this process's: a container's environment is its own. */
  cleanEnvironment?: boolean;
};

export function startWorkerProcess(environment: Record<string, string>, options: WorkerOptions = {}): WorkerProcess {
  const [program, ...args] = options.command ?? WORKER_COMMAND;
  const log = options.logFile === undefined ? undefined : openSync(options.logFile, 'a');
  const child = spawn(program === 'node' ? process.execPath : program!, args, {
    cwd: options.cwd,
    env: { ...(options.cleanEnvironment ? {} : process.env), ...environment } as NodeJS.ProcessEnv,
    stdio: log === undefined ? ['ignore', 'ignore', 'inherit'] : ['ignore', log, log],
    detached: true,
    uid: options.uid,
    gid: options.gid,
  });
  if (log !== undefined) closeSync(log);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const signal = async (name: NodeJS.Signals, target: number) => {
    try {
      process.kill(target, name);
    } catch {
      // already gone
    }
    await exited;
  };
  return { child, stop: () => signal('SIGTERM', child.pid!), killHard: () => signal('SIGKILL', -child.pid!) };
}
