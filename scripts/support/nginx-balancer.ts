import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

// deploy/nginx.conf, the balancer's site as compose.yaml mounts it into the nginx image
// (conf.d/default.conf, inside the image's `http` block), run by this machine's nginx: the
// compose host names and ports of the upstream servers and the listening port are replaced by
// local ones, and a main configuration gives it the `http` block, a pid file, logs and
// temporary directories of its own. Everything else of the site is used as written.
export type Balancer = { origin: string; stop: () => Promise<void> };

export type BalancerOptions = {
  /** The site's text (deploy/nginx.conf). */
  site: string;
  /** Compose `host:port` of each upstream server to the local `host:port` that stands for it. */
  upstreams: Record<string, string>;
  /** The port the site listens on in compose, and the local port to listen on instead. */
  listen: { from: number; to: number };
  dir: string;
  /** Where its access and error logs go (nginx-access.log, nginx-error.log). */
  logDir: string;
  /** The user nginx's workers run as (they write the temporary directories). */
  user: { name: string; group: string; uid: number; gid: number };
};

/** The site with compose's addresses replaced by local ones; fails if one is not in the site. */
export function localSite(site: string, upstreams: Record<string, string>, listen: { from: number; to: number }): string {
  let local = site;
  for (const [compose, address] of Object.entries(upstreams)) {
    const pattern = new RegExp(`(\\bserver\\s+)${compose.replace(/[.:]/g, '\\$&')}(?=[\\s;])`, 'g');
    if (!pattern.test(local)) throw new Error(`nginx site: no upstream server ${compose}`);
    local = local.replace(pattern, (_, keyword: string) => `${keyword}${address}`);
  }
  const listenPattern = new RegExp(`(\\blisten\\s+)${listen.from}(?=[\\s;])`);
  if (!listenPattern.test(local)) throw new Error(`nginx site: no listen ${listen.from}`);
  return local.replace(listenPattern, (_, keyword: string) => `${keyword}127.0.0.1:${listen.to}`);
}

function mainConfig(dir: string, logDir: string, user: { name: string; group: string }): string {
  const temp = (name: string) => `${name}_temp_path ${join(dir, 'temp', name)};`;
  return [
    'daemon off;',
    `user ${user.name} ${user.group};`,
    'worker_processes 1;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(logDir, 'nginx-error.log')} warn;`,
    'events { worker_connections 512; }',
    'http {',
    `  access_log ${join(logDir, 'nginx-access.log')};`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `  ${temp(name)}`),
    `  include ${join(dir, 'default.conf')};`,
    '}',
    '',
  ].join('\n');
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startBalancer(options: BalancerOptions): Promise<Balancer> {
  const { dir, user } = options;
  mkdirSync(join(dir, 'temp'), { recursive: true });
  chownSync(join(dir, 'temp'), user.uid, user.gid);
  writeFileSync(join(dir, 'default.conf'), localSite(options.site, options.upstreams, options.listen));
  const config = join(dir, 'nginx.conf');
  writeFileSync(config, mainConfig(dir, options.logDir, user));
  const errorLog = join(options.logDir, 'nginx-error.log');
  const check = spawnSync('nginx', ['-t', '-q', '-c', config, '-p', dir, '-e', errorLog], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t: ${check.stderr || check.error?.message}`);
  const log = openSync(join(dir, 'nginx.out'), 'a');
  const child: ChildProcess = spawn('nginx', ['-c', config, '-p', dir, '-e', errorLog], { stdio: ['ignore', log, log] });
  closeSync(log);
  const deadline = Date.now() + 10_000;
  while (!(await listening(options.listen.to))) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode} (see ${errorLog})`);
    if (Date.now() > deadline) throw new Error('nginx did not listen');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    origin: `http://127.0.0.1:${options.listen.to}`,
    // SIGQUIT: nginx's graceful stop.
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGQUIT');
      }),
  };
}
