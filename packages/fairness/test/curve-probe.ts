/**
 * Run in a fresh process by lazy-curve.test.ts (the fast tier shares one module graph between test
 * files, so only a fresh process shows what loading loads): records every module resolved whose URL
 * names the BLS12-381 curve, loads @pyb/fairness, verifies one published drand quicknet round, and
 * prints what was resolved after each step.
 */
import { registerHooks } from 'node:module';

const curve: string[] = [];
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    if (resolved.url.includes('bls12-381')) curve.push(resolved.url);
    return resolved;
  },
});

const fairness = await import('@pyb/fairness');
const afterLoad = [...curve];
// drand quicknet round 1000, as published (beacon.test.ts).
const verified = await fairness.verifyBeaconRound(fairness.QUICKNET, {
  round: 1000,
  signature:
    'b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39',
});
process.stdout.write(JSON.stringify({ afterLoad, verified, afterVerify: [...curve] }));
