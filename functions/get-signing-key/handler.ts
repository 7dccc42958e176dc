import { getSigningKeyContract } from '@pyb/contracts';
import { signingKey } from '@pyb/core/use-cases';
import { beaconOf } from '../src/beacon';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';
import { getSigningKeyRoute } from '../src/routes';
import { timeStampPinsOf } from '../src/time-stamps';
import { signingKeyView } from '../src/views';

export const handler = httpHandler(getSigningKeyRoute, getSigningKeyContract, async ({ context, query }) =>
  signingKeyView(
    await signingKey(useCases(context, keysOf(context)), query),
    await beaconOf(context).network(),
    timeStampPinsOf(context),
  ),
);
