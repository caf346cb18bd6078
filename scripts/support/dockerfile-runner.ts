import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { basename, join, posix } from 'node:path';
import { envOf, healthcheckCommand, parseDockerfile, type Instruction } from './dockerfile';

// Carries out a Dockerfile's stages on this machine, for the deploy rehearsal: each stage's file
// system is a directory (`<dir>/fs`, so that every stage sees the same absolute paths, as the
// image's /app is the same path in the build and the runtime stage; a finished stage moves to
// `<dir>/stages/<name>` for COPY --from). WORKDIR, ENV, COPY (from the build context or
// --from a stage, --chown), RUN (as root, or as USER once given), USER, EXPOSE, HEALTHCHECK and
// CMD; anything else fails, so that a change of the Dockerfile cannot go unrehearsed. The base
// images are not fetched: this machine's Node and npm stand in for them.
export type LocalUser = { name: string; group: string; uid: number; gid: number; home: string };

export type Image = {
  /** The last stage's file system (`<dir>/fs`): container path P is root + P. */
  root: string;
  workdir: string;
  env: Record<string, string>;
  user: LocalUser | null;
  cmd: string[];
  healthcheck?: string[];
  exposed: string[];
};

export type RunnerOptions = {
  dockerfile: string;
  /** The build context, already copied by its .dockerignore rules. */
  context: string;
  dir: string;
  /** The local user that stands for a USER or --chown name of the Dockerfile. */
  userFor: (name: string) => LocalUser;
  /** May carry out a RUN command's step itself (the rehearsal's reuse of a build); true when it did. */
  substitute?: (step: string, cwd: string) => Promise<boolean>;
  log: (line: string) => void;
};

function run(command: string[], cwd: string, env: NodeJS.ProcessEnv, user: LocalUser | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
    });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command.join(' ')} failed: ${signal ?? `exit ${code}`}`)),
    );
  });
}

/**
 * cp -a keeps modes and links. A finished stage is never changed again, so its files may be
 * hard links instead of copies (much faster for node_modules), where the file system allows.
 */
export function copyTree(source: string, target: string, hardLinks: boolean): void {
  if (hardLinks && spawnSync('cp', ['-al', source, target]).status === 0) return;
  const result = spawnSync('cp', ['-a', source, target], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`cp ${source} ${target}: ${result.stderr}`);
}

function copyInstruction(instruction: Instruction, state: { workdir: string }, options: RunnerOptions, fs: string): void {
  const args = [...instruction.args];
  const destination = args.pop()!;
  if (args.length === 0) throw new Error(`COPY without a source: ${instruction.text}`);
  const from = instruction.flags.from;
  const sourceRoot = from === undefined ? options.context : join(options.dir, 'stages', from);
  if (from !== undefined && !existsSync(sourceRoot)) throw new Error(`COPY --from=${from}: no such stage`);
  const target = join(fs, posix.resolve(state.workdir, destination));
  const intoDirectory = destination.endsWith('/') || args.length > 1 || destination === '.';
  for (const source of args) {
    if (/[*?[]/.test(source)) throw new Error(`COPY ${source}: wildcards are not rehearsed`);
    const path = join(sourceRoot, from === undefined ? posix.normalize(`/${source}`) : source);
    if (!existsSync(path)) throw new Error(`COPY ${from ? `--from=${from} ` : ''}${source}: not found`);
    if (statSync(path).isDirectory()) {
      mkdirSync(target, { recursive: true });
      copyTree(`${path}/.`, target, from !== undefined);
    } else {
      mkdirSync(intoDirectory ? target : join(target, '..'), { recursive: true });
      copyTree(path, intoDirectory ? join(target, basename(path)) : target, from !== undefined);
    }
  }
  const chown = instruction.flags.chown;
  if (chown) {
    const user = options.userFor(chown.split(':')[0]!);
    for (const source of args) {
      const copied = intoDirectory && !statSync(join(sourceRoot, source)).isDirectory() ? join(target, basename(source)) : target;
      const result = spawnSync('chown', ['-R', `${user.uid}:${user.gid}`, copied]);
      if (result.status !== 0) throw new Error(`COPY --chown=${chown}: chown failed`);
    }
  }
}

/** Runs every stage; returns the last one (the image) in `<dir>/fs`. */
export async function buildImage(options: RunnerOptions): Promise<Image> {
  const stages = parseDockerfile(options.dockerfile);
  const fs = join(options.dir, 'fs');
  mkdirSync(join(options.dir, 'stages'), { recursive: true });
  let image: Image | undefined;
  for (const [index, stage] of stages.entries()) {
    mkdirSync(fs);
    chmodSync(fs, 0o755);
    const state: Image = { root: fs, workdir: '/', env: {}, user: null, cmd: [], exposed: [] };
    options.log(`stage ${stage.name} (FROM ${stage.image}: this machine's Node ${process.version} and npm stand in)`);
    for (const instruction of stage.instructions) {
      const { keyword } = instruction;
      if (keyword === 'WORKDIR') {
        state.workdir = posix.resolve(state.workdir, instruction.args[0]!);
        mkdirSync(join(fs, state.workdir), { recursive: true });
      } else if (keyword === 'ENV') Object.assign(state.env, envOf(instruction));
      else if (keyword === 'COPY') {
        options.log(`COPY ${instruction.text}`);
        copyInstruction(instruction, state, options, fs);
      } else if (keyword === 'RUN') {
        const cwd = join(fs, state.workdir);
        const env = { ...process.env, ...state.env };
        // With a substitute, the `&&` steps of a shell-form RUN run one by one, so that one may be taken over.
        const steps = instruction.exec || !options.substitute ? [instruction.text] : instruction.text.split(/\s*&&\s*/);
        for (const step of steps) {
          if (await options.substitute?.(step, cwd)) continue;
          options.log(`RUN ${step}`);
          await run(instruction.exec ?? ['/bin/sh', '-c', step], cwd, env, state.user);
        }
      } else if (keyword === 'USER') state.user = options.userFor(instruction.args[0]!.split(':')[0]!);
      else if (keyword === 'EXPOSE') state.exposed.push(...instruction.args);
      else if (keyword === 'HEALTHCHECK') state.healthcheck = healthcheckCommand(instruction);
      else if (keyword === 'CMD') state.cmd = instruction.exec ?? ['/bin/sh', '-c', instruction.text];
      else throw new Error(`Dockerfile: ${keyword} is not rehearsed`);
    }
    if (index < stages.length - 1) renameSync(fs, join(options.dir, 'stages', stage.name));
    else image = state;
  }
  return image!;
}
