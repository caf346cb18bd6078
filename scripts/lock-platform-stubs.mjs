// The registry these machines reach serves only some platforms' builds of packages such as
// @next/swc-* and @tailwindcss/oxide-*. `npm install` then leaves the other platforms'
// optional packages out of package-lock.json, and `npm ci` refuses the lock as out of sync.
// This adds an entry for each missing optional platform package, with its os and cpu, so
// `npm ci` skips it on this platform instead. Run it after `npm install` changes the lock.
import { readFileSync, writeFileSync } from 'node:fs';

const PLATFORM = [
  [/darwin/, { os: ['darwin'] }],
  [/win32/, { os: ['win32'] }],
  [/android/, { os: ['android'] }],
  [/freebsd/, { os: ['freebsd'] }],
  [/wasm32|wasi/, { cpu: ['wasm32'] }],
  [/linux/, { os: ['linux'] }],
];
const CPU = [
  [/arm64|aarch64/, ['arm64']],
  [/x64|x86_64/, ['x64']],
  [/ia32/, ['ia32']],
  [/-arm(-|$)/, ['arm']],
];

const path = 'package-lock.json';
const lock = JSON.parse(readFileSync(path, 'utf8'));
let added = 0;
for (const [location, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location}/node_modules/${name}`;
    const top = `node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[top]) continue;
    const platform = PLATFORM.find(([pattern]) => pattern.test(name))?.[1];
    if (!platform) continue;
    const cpu = platform.cpu ?? CPU.find(([pattern]) => pattern.test(name))?.[1];
    lock.packages[top] = {
      version: version.replace(/^[\^~]/, ''),
      ...(cpu ? { cpu } : {}),
      ...(platform.os ? { os: platform.os } : {}),
      optional: true,
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform stubs`);
