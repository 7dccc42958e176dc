/**
 * Run in a fresh process by lazy-schemas.test.ts (the fast tier shares one module graph between test
 * files, so only a fresh process shows what loading builds): loads the contracts (the registry of
 * every endpoint's contract too), the engine and the proof formats, then builds one endpoint's schemas,
 * and prints the component ids registered and the exports that are schema objects.
 */
import * as contracts from '@pyb/contracts';
import { ENDPOINTS } from '@pyb/contracts/endpoints';
import * as engine from '@pyb/engine';
import * as fairness from '@pyb/fairness';
import * as z from 'zod';

const builtIds = () => [...(z.globalRegistry as unknown as { _idmap: Map<string, unknown> })._idmap.keys()];

const afterLoad = builtIds();
const eagerExports = [...Object.entries(contracts), ...Object.entries(engine), ...Object.entries(fairness)]
  .filter(([, value]) => value instanceof z.ZodType)
  .map(([name]) => name);
const { params, response } = contracts.getWalletContract;
if (ENDPOINTS['get-wallet'] !== contracts.getWalletContract)
  throw new Error('the registry holds another object');
params();
response();
process.stdout.write(JSON.stringify({ afterLoad, eagerExports, afterGetWallet: builtIds() }));
