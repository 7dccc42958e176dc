/**
 * Run in a fresh process by lazy-curve.test.ts (the fast tier shares one module graph between test
 * files, so only a fresh process shows what loading loads): records every module of `@noble/curves`
 * resolved, loads @pyb/fairness, checks a real P-256 signature (the example bundle's statement under
 * the example operator key) and the same signature over an altered statement, then verifies one
 * published drand quicknet round, and prints what was resolved after each step.
 */
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

/** Module URLs in the order first resolved (a module imported from several places resolves several times). */
const curves = new Set<string>();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    if (resolved.url.includes('@noble/curves/')) curves.add(resolved.url);
    return resolved;
  },
});

const fairness = await import('@pyb/fairness');
const afterLoad = [...curves];

const example = (name: string) => readFileSync(new URL(`../examples/${name}`, import.meta.url), 'utf8');
const bundle = JSON.parse(example('shoe-bundle.json')) as { statement: unknown; signature: string };
const spki = fairness.parsePublicKey(example('operator.pem'));
const signed = fairness.statementBytes(bundle.statement as Parameters<typeof fairness.statementBytes>[0]);
const altered = signed.slice();
altered[altered.length - 2]! ^= 1;
const signature = fairness.base64ToBytes(bundle.signature);
const p256 = {
  good: await fairness.verifyDerSignature(signed, signature, spki),
  bad: await fairness.verifyDerSignature(altered, signature, spki),
};
const afterP256 = [...curves];

// drand quicknet round 1000, as published (beacon.test.ts).
const beacon = await fairness.verifyBeaconRound(fairness.QUICKNET, {
  round: 1000,
  signature:
    'b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39',
});
process.stdout.write(JSON.stringify({ afterLoad, p256, afterP256, beacon, afterBeacon: [...curves] }));
