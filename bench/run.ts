/**
 * `pnpm bench [suite ...]`: runs the named benchmark suites (all when none is named), one after the
 * other in this process. Add a suite by listing its module here; it exports `run(): Promise<void>`.
 */
export {};

const suites: Record<string, () => Promise<{ run(): Promise<void> }>> = {
  engine: () => import('./engine'),
  bundles: () => import('./bundles'),
  api: () => import('./api'),
  'no-va-mas': () => import('./no-va-mas'),
  live: () => import('./live'),
  cadence: () => import('./cadence'),
  'play-page': () => import('./play-page'),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((name) => !Object.hasOwn(suites, name));
if (unknown.length > 0) {
  console.error(`unknown bench suite(s): ${unknown.join(', ')}; known: ${Object.keys(suites).join(', ')}`);
  process.exit(2);
}
for (const name of wanted.length > 0 ? wanted : Object.keys(suites)) {
  const suite = await suites[name]!();
  await suite.run();
}
// Done: a suite's in-process handlers may keep clients open (the live publisher's MQTT connection
// retrying a broker the suite closed), which would keep this process alive.
process.exit(0);
