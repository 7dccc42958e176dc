import { getKeyIdentityContract } from '@pyb/contracts';
import { whoAmI } from '@pyb/core';
import { httpHandler } from '../src/http';
import {
  closeShoeRoute,
  getKeyIdentityRoute,
  openRoundRoute,
  openShoeRoute,
  walletTransactionRoute,
} from '../src/routes';

export const handler = httpHandler(getKeyIdentityRoute, getKeyIdentityContract, async ({ actor }) => {
  const key = whoAmI(actor);
  // What the role may do, read from the very routes that enforce it.
  const may = (...routes: { roles: readonly string[] }[]) => routes.every((r) => r.roles.includes(key.role));
  return {
    ...key,
    may: {
      openAndCloseShoes: may(openShoeRoute, closeShoeRoute),
      deal: may(openRoundRoute),
      moveMoney: may(walletTransactionRoute),
      setWalletModes: key.platform,
    },
  };
});
