/**
 * Replays a property test (fast-check): a failure prints `{ seed: <n>, path: "<p>" }`; with
 * `FC_SEED=<n> FC_PATH=<p>` every property of the run starts from that seed and path (name the file
 * and `-t <test>` to replay just the one that failed). Unset: each run draws new seeds.
 */
import fc from 'fast-check';

const seed = process.env.FC_SEED;
const path = process.env.FC_PATH;
if (seed !== undefined && seed !== '') {
  if (!/^-?\d{1,10}$/.test(seed)) throw new Error(`FC_SEED must be an integer (got "${seed}")`);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(seed), ...(path && { path }) });
}
