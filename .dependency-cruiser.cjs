// The floors of src/, checked by `npm test` (scripts/check-layers.js runs dependency-cruiser with
// this file): no import circle, `import type` included, and no import from a floor to one above
// it but the exceptions listed below, each with its reason. docs/architecture.md draws the floors.

/** From the ground up. A module may import its own floor and the ones below. */
const FLOORS = [
  {
    name: 'ground',
    what: 'plumbing every floor uses: the logger, refusals as data, the catalogues, config readers, JUnit, connections',
    paths: ['^src/(log|refusals|i18n|junit|connections)/', '^src/config/(issues|yaml-issues|nearest-key|blank-environment|off-value)\\.ts$'],
  },
  {
    name: 'records',
    what: 'what is stored and its primitives: the store and its row types, the clock, trades, merchants, signatures',
    paths: ['^src/(store|clock|trades|merchants|auth)/'],
  },
  {
    name: 'behaviour',
    what: 'what happens to trades: the lifecycle, scenarios, callbacks, the receiver check, the fuzzer, the balance probe, the options',
    paths: ['^src/(lifecycle|scenarios|callbacks|check-callback|callback-fuzzer|balance-probe|profile|drift)/', '^src/config/options\\.ts$'],
  },
  {
    name: 'tenant',
    what: 'one sandbox, assembled (src/sandbox.ts), the integration report it keeps, the go-live checklist built from it, and its sessions (recording, state documents)',
    paths: ['^src/sandbox\\.ts$', '^src/(report|sessions|go-live)/'],
  },
  {
    name: 'http',
    what: 'HTTP plumbing every route uses: errors, bodies, validation, the request context, the guards',
    paths: ['^src/(http|security)/'],
  },
  {
    name: 'routes',
    what: 'the resources: provider API, admin API, pages, the OpenAPI document, workspaces',
    paths: ['^src/(api|admin|pages|openapi|workspaces)/'],
  },
  {
    name: 'server',
    what: 'the server and its app, and the clients of a running one',
    paths: ['^src/(server|health|admin-client)/', '^src/app\\.ts$'],
  },
  {
    name: 'entry',
    what: 'ways in: the CLI, startSandbox(), the package root',
    paths: ['^src/(cli|programmatic)/', '^src/index\\.ts$'],
  },
];

/** Imports that go up a floor on purpose: from (a module) to (a module or folder), and why. */
const EXCEPTIONS = [
  {
    floor: 'tenant',
    from: '^src/report/count-(creates|reads|refusal)\\.ts$',
    to: '^src/http/',
    why: "the report's request hooks are HTTP middleware beside the report they feed: they read the request's context and body kind",
  },
  {
    floor: 'http',
    from: '^src/http/sandbox-env\\.ts$',
    to: '^src/server/server\\.ts$',
    why: 'the request context names the server the app serves (a type only): the report of default reads the other workspaces from it',
  },
];

const above = (index) => FLOORS.slice(index + 1).flatMap((floor) => floor.paths);

/** One rule a floor: nothing above it; and one an exception: nothing above its floor but what it names. */
const floorRules = FLOORS.slice(0, -1).flatMap((floor, index) => {
  const lifted = EXCEPTIONS.filter((exception) => exception.floor === floor.name);
  const comment = `The ${floor.name} floor (${floor.what}) imports nothing above it: move the shared part down, or list the import in EXCEPTIONS with why.`;
  return [
    { name: `no-import-above-${floor.name}`, severity: 'error', comment, from: { path: floor.paths, pathNot: lifted.map((exception) => exception.from) }, to: { path: above(index) } },
    ...lifted.map((exception) => ({
      name: `no-import-above-${floor.name}`,
      severity: 'error',
      comment: `${comment} Allowed for this module: ${exception.why}.`,
      from: { path: exception.from },
      to: { path: above(index), pathNot: exception.to },
    })),
  ];
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other, by value or by type, can only be understood and changed together.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'in-a-floor',
      severity: 'error',
      comment: 'Every module of src/ stands on one floor (.dependency-cruiser.cjs FLOORS): add a new folder to one.',
      from: { path: '^src/', pathNot: ['\\.test\\.tsx?$', ...FLOORS.flatMap((floor) => floor.paths)] },
      to: {},
    },
    ...floorRules,
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.test\\.tsx?$' },
    doNotFollow: { path: 'node_modules' },
  },
};

// The exceptions themselves, for scripts/check-layers.js, which counts them (at most 15); not a
// key dependency-cruiser reads.
Object.defineProperty(module.exports, 'exceptions', { value: EXCEPTIONS, enumerable: false });
