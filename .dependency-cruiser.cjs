/**
 * The import rules of the workspace (docs/architecture.md, "Layers"), checked in CI (.ci/run):
 * `./node_modules/.bin/depcruise packages functions infra bench test web tools --config .dependency-cruiser.cjs`.
 */
/** Folders that are a package of their own: a relative import may not leave one. */
const PACKAGE = '^(packages/[^/]+|tools/[^/]+|functions|infra|bench|test|web)/';

/**
 * The bounded contexts of packages/core/src and whom each may import (docs/architecture.md,
 * "Contexts"): the arrows point down only, so no two contexts import each other. Anything not listed
 * is forbidden, one rule per context (`core-context-<name>`).
 */
const CONTEXTS = {
  shared: [],
  trail: ['shared'],
  tables: ['trail', 'shared'],
  wallet: ['trail', 'shared'],
  seamless: ['wallet', 'trail', 'shared'],
  shoes: ['tables', 'wallet', 'trail', 'shared'],
  rounds: ['shoes', 'seamless', 'tables', 'wallet', 'trail', 'shared'],
  audit: ['rounds', 'shoes', 'seamless', 'tables', 'wallet', 'trail', 'shared'],
  live: ['tables', 'trail', 'shared'],
  reports: ['audit', 'rounds', 'shoes', 'seamless', 'tables', 'wallet', 'trail', 'shared'],
};

function contextRules() {
  const names = Object.keys(CONTEXTS);
  return names.map((name) => {
    const forbidden = names.filter((other) => other !== name && !CONTEXTS[name].includes(other));
    return {
      name: `core-context-${name}`,
      severity: 'error',
      comment: `The ${name} context imports only ${CONTEXTS[name].join(', ') || 'nothing of the other contexts'} (the order of docs/architecture.md, "Contexts"); it never imports ${forbidden.join(', ')}, nor the package's entry points.`,
      from: { path: `^packages/core/src/${name}/` },
      to: {
        path: [`^packages/core/src/(${forbidden.join('|')})/`, '^packages/core/src/[^/]+\\.ts$'],
      },
    };
  });
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Files that import each other in a loop cannot be understood (or tested) one at a time. A loop closed only by types or by a lazy import() (test/support loads DynamoDB Local only when asked) is not one.',
      from: { pathNot: '/node_modules/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only', 'dynamic-import'] } },
    },
    {
      name: 'no-relative-import-across-packages',
      severity: 'error',
      comment:
        'A workspace package imports another by its name (@pyb/...), and only what that package exports, never ../../other/src/file.',
      from: { path: PACKAGE },
      to: { dependencyTypes: ['local'], pathNot: ['^$1/', '/node_modules/'] },
    },
    {
      name: 'pure-engine-and-fairness',
      severity: 'error',
      comment:
        'packages/engine and packages/fairness run in a browser: no node: built-ins, no AWS, nothing of the packages above them.',
      from: { path: '^packages/(engine|fairness)/src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'pure-engine-and-fairness-no-aws',
      severity: 'error',
      comment: 'packages/engine and packages/fairness import no AWS and nothing of the packages above them.',
      from: { path: '^packages/(engine|fairness)/src/' },
      to: {
        path: [
          '(^|/)node_modules/(@aws-sdk|@aws-lambda-powertools|aws-cdk-lib|@middy)/',
          '^(packages/(core|contracts|keys|store-dynamodb|cli)|functions|infra)/',
        ],
      },
    },
    {
      name: 'core-and-contracts-hold-no-adapter',
      severity: 'error',
      comment: 'The core (use cases on ports) and the contracts import no AWS SDK, no handler, no adapter.',
      from: { path: '^packages/(core|contracts)/src/' },
      to: {
        path: [
          '(^|/)node_modules/(@aws-sdk|@aws-lambda-powertools|aws-cdk-lib|@middy)/',
          '^(packages/(keys|store-dynamodb|cli)|functions|infra)/',
        ],
      },
    },
    {
      name: 'handler-takes-its-own-contract',
      severity: 'error',
      comment:
        'A function\'s bundle parses what its handler reaches: a handler takes its own contract (`<handler>Contract` from @pyb/contracts) and its own route (`<handler>Route`), never the registry of every endpoint\'s schemas (`ENDPOINTS`, @pyb/contracts/endpoints), which only the OpenAPI documents and the tests need (docs/architecture.md, "Per-endpoint contracts"). The two Meta endpoints reach it only through `import()` of functions/src/documents.ts, which their bundles never load (the document is rendered at build time).',
      from: { path: '^functions/[^/]+/handler\\.ts$', pathNot: '^functions/get-(seamless-)?openapi/' },
      to: { path: '^packages/contracts/src/endpoints\\.ts$', reachable: true },
    },
    {
      name: 'contracts-below-core',
      severity: 'error',
      comment: 'The contracts are the source of the shapes the core returns: they never import the core.',
      from: { path: '^packages/contracts/src/' },
      to: { path: '^packages/core/' },
    },
    {
      name: 'core-context-through-its-index',
      severity: 'error',
      comment:
        'A bounded context of the core reaches another only through that context\'s index.ts (its public face), never a file inside it (docs/architecture.md, "Contexts"). The entry points of the package (index.ts, use-cases.ts, core.ts) do the same.',
      from: { path: '^packages/core/src/(?:([^/]+)/|[^/]+\\.ts$)' },
      to: {
        path: '^packages/core/src/[^/]+/.',
        pathNot: ['^packages/core/src/$1/', '^packages/core/src/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'core-context-own-index-from-outside-only',
      severity: 'error',
      comment:
        'Inside a context, files import each other directly: importing the own index.ts would route a file through every other file of the context (and make a cycle).',
      from: { path: '^packages/core/src/([^/]+)/' },
      to: { path: '^packages/core/src/$1/index\\.ts$' },
    },
    {
      name: 'core-context-no-type-cycle',
      severity: 'error',
      comment:
        'No cycle in the core at all, not even one closed only by types (the old model.ts <-> responsible-gaming.ts): a context reads bottom-up.',
      from: { path: '^packages/core/src/' },
      to: { circular: true },
    },
    {
      name: 'core-foundations-stay-below',
      severity: 'error',
      comment:
        'The records, ports, errors and pure helpers at the bottom of the shared kernel import nothing above them in it.',
      from: {
        path: '^packages/core/src/shared/(model|errors|actor|ledger-keys|same-json|stakes|days)(\\.ts$|/)|^packages/core/src/shared/ports/',
      },
      to: {
        path: '^packages/core/src/shared/(auth/|idempotency/|context|views\\.ts|api\\.ts|tenancy\\.ts)',
      },
    },
    {
      name: 'pure-timestamp-verification',
      severity: 'error',
      comment:
        'packages/timestamp runs in a browser (the web verifier checks time-stamp tokens offline): no node: built-ins outside its HTTP server (src/server.ts, dev and tests), its environment reader (src/config.ts) and the local TSA key folder (src/local-identity.ts).',
      from: {
        path: '^packages/timestamp/src/',
        pathNot: '^packages/timestamp/src/(server|config|local-identity)\\.ts$',
      },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'pure-timestamp-no-platform',
      severity: 'error',
      comment:
        'packages/timestamp is a building block below the core: no AWS and nothing of the packages above it (the core owns the port it wires).',
      from: { path: '^packages/timestamp/src/' },
      to: {
        path: [
          '(^|/)node_modules/(@aws-sdk|@aws-lambda-powertools|aws-cdk-lib|@middy)/',
          '^(packages/(core|contracts|keys|store-[^/]+|cli|beacon)|functions|infra)/',
        ],
      },
    },
    // Production code only in production packages (issue 25): separate entries, kept together here.
    {
      name: 'functions-hold-production-code-only',
      severity: 'error',
      comment:
        'What the Lambdas bundle (functions/src, functions/<handler>/, functions/jobs/) imports neither the web app nor a tool: the local server, the static site and the dev stack live in tools/dev (@pyb/dev), the operations tool in tools/ops (@pyb/ops) (docs/architecture.md, "Tools").',
      from: { path: '^functions/', pathNot: '^functions/test/' },
      // The names too: an import a package.json does not declare stays unresolved, named as written.
      to: { path: '^((web|tools)/|@pyb/(web|dev|ops|lab)(/|$))' },
    },
    {
      name: 'production-imports-no-test-code',
      severity: 'error',
      comment:
        'Production code (packages/*/src, functions, web/src, infra/src) imports no test support, no fixture and no test helper: fixtures such as the demo bundle live under a test/ folder and only tests import them.',
      from: {
        path: '^(packages/[^/]+/src/|functions/|web/src/|web/[^/]+\\.ts$|infra/src/)',
        pathNot: '^functions/test/',
      },
      to: {
        path: '^(test/|(packages/[^/]+|tools/[^/]+|functions|web|infra|bench)/test/|@pyb/test(/|$)|@pyb/[^/]+/test-helpers$)',
      },
    },
    {
      name: 'production-imports-no-tools',
      severity: 'error',
      comment:
        'Production code imports no dev, operations or lab tool (tools/*: @pyb/dev, @pyb/ops, @pyb/lab).',
      from: {
        path: '^(packages/[^/]+/src/|functions/|web/src/|web/[^/]+\\.ts$|infra/src/)',
        pathNot: '^(packages/cli/src/|functions/test/)',
      },
      to: { path: '^(tools/|@pyb/(dev|ops|lab)(/|$))' },
    },
    {
      name: 'cli-uses-only-the-lab',
      severity: 'error',
      comment:
        "The baccarat CLI is a desk tool (it never ships in a Lambda or the browser): its rng-sample command runs the standards' randomness tests of tools/lab (@pyb/lab); it uses no other tool.",
      from: { path: '^packages/cli/src/' },
      to: { path: '^(tools/|@pyb/(dev|ops)(/|$))', pathNot: '^tools/lab/' },
    },
    ...contextRules(),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|cdk\\.out|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
