// The Node.js a process of the service runs on. package.json's engines.node names the oldest
// supported release; an older one (an end-of-life Node with no security fixes) is refused at
// start rather than run. Plain JavaScript: server.js loads it before anything is built.
import { readFileSync } from 'node:fs';

/** @param {string} version e.g. "24.11.0" or ">=24.11" */
function parts(version) {
  return (version.match(/\d+(\.\d+){0,2}/)?.[0] ?? '0').split('.').map(Number);
}

/**
 * Says which Node runs `what`, and ends the process (exit 1) when it is older than engines.node.
 * @param {string} what the process's name in the line it logs
 * @param {{ packageJson?: string, version?: string, exit?: (code: number) => never, log?: (line: string) => void }} [options]
 */
export function checkRuntime(what, options = {}) {
  const { packageJson = 'package.json', version = process.versions.node, exit = process.exit, log = console.log } = options;
  const required = JSON.parse(readFileSync(packageJson, 'utf8')).engines?.node ?? '0';
  const [have, want] = [parts(version), parts(required)];
  const older = want.findIndex((part, index) => (have[index] ?? 0) !== part);
  if (older !== -1 && (have[older] ?? 0) < /** @type {number} */ (want[older])) {
    console.error(
      `${what}: Node ${version} is older than the supported ${required} (package.json engines); ` +
        'run it through npm (npm start, npm run ...), which uses the Node the project installs, or install Node 24 LTS',
    );
    return exit(1);
  }
  log(`${what}: Node ${version} (${process.execPath})`);
}
