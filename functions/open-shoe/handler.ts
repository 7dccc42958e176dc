import { ENDPOINTS } from '@pyb/contracts';
import { openShoe } from '@pyb/core/use-cases';
import { beaconOf } from '../src/beacon';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';

export const handler = httpHandler('open-shoe', ENDPOINTS['open-shoe'], ({ context, actor, params }) =>
  openShoe(useCases(context, keysOf(context), { beacon: beaconOf(context) }), actor, params),
);
