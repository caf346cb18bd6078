// The layers of src/server and what each may import (docs/ARCHITECTURE.md, "Layers"). `npm run lint`
// runs this: a new upward import or import cycle fails CI. Lower layers first:
//   core -> platform -> payments -> modules -> api -> http -> jobs, startup -> src/app
// A layer imports only from layers below it (and src/env.ts, except core). Tests (*.test.ts) may
// import anything they test, plus tests/support.
const TEST = '\\.test\\.tsx?$';
const SERVER = '^src/server/';
const layer = (name) => `^src/server/${name}/`;

/** A rule: files in `from` may not import `to`. */
function never(name, comment, from, to) {
  return { name, comment, severity: 'error', from: { path: from, pathNot: TEST }, to: { path: to } };
}

const UPPER_THAN = {
  core: ['platform', 'payments', 'modules', 'api', 'http', 'jobs', 'startup'],
  platform: ['payments', 'modules', 'api', 'http', 'jobs', 'startup'],
  payments: ['modules', 'api', 'http', 'jobs', 'startup'],
  modules: ['api', 'http', 'jobs', 'startup'],
  api: ['http', 'jobs', 'startup'],
  http: ['jobs', 'startup'],
  jobs: ['api', 'http', 'startup'],
};

// Which resource module may use which: a resource below uses none above it. Read as "events
// never imports charges": an event knows nothing of what moved.
const MODULE_ORDER = [
  'merchants',
  'access',
  'events',
  'processors',
  'routing',
  'customers',
  'charges',
  'refunds',
  'notifications',
  'console',
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle: one of the two must not know the other.',
      severity: 'error',
      from: { pathNot: TEST },
      to: { circular: true, viaOnly: { pathNot: TEST } },
    },
    ...Object.entries(UPPER_THAN).map(([low, highs]) =>
      never(
        `${low}-imports-upward`,
        `${low} is below ${highs.join(', ')}: it may not import them.`,
        layer(low),
        `^src/server/(${highs.join('|')})/`,
      ),
    ),
    never(
      'core-is-pure',
      'core holds rules only: no configuration, database, framework or I/O.',
      layer('core'),
      '^src/env\\.ts$|^src/generated/|node_modules/(next|@trpc|@prisma|next-auth|pg|@electric-sql)/',
    ),
    never(
      'server-never-imports-app',
      'src/server serves src/app, never the reverse.',
      SERVER,
      '^src/(app|proxy\\.ts|instrumentation\\.ts)',
    ),
    {
      name: 'rest-entry-loads-rest-only',
      comment:
        "The API's HTTP entry loads the procedures of the documented REST paths (api/routers/rest-router.ts), never the console's or the operator's.",
      severity: 'error',
      from: { path: '^src/server/http/node-api\\.ts$' },
      to: { path: '^src/server/(api/routers/(console|admin)/|api/console-caller\\.ts|modules/console/)', reachable: true },
    },
    never('code-never-imports-tests', 'Shipped code never imports the test suites or scripts.', '^src/', '^(tests|e2e|scripts)/'),
    never(
      'payments-through-facade',
      'Outside payments/, a connector is reached through @/server/payments only.',
      `${SERVER}(?!payments/)`,
      '^src/server/payments/(?!index\\.ts$)',
    ),
    never('e2e-support-never-imports-scripts', 'scripts/ may use e2e/support, not the reverse.', '^e2e/', '^scripts/'),
    ...MODULE_ORDER.map((name, i) => {
      const above = MODULE_ORDER.slice(i + 1);
      return above.length === 0
        ? null
        : never(
            `modules-${name}-downward-only`,
            `${name} may not import ${above.join(', ')}.`,
            `^src/server/modules/${name}/`,
            `^src/server/modules/(${above.join('|')})/`,
          );
    }).filter(Boolean),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules stays in the graph as leaves (doNotFollow), so core-is-pure sees a package import.
    exclude: { path: '^(\\.next|src/generated)' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
