import { getWalletContract } from '@pyb/contracts';
import { getWallet } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { getWalletRoute } from '../src/routes';

export const handler = httpHandler(getWalletRoute, getWalletContract, ({ context, actor, params }) =>
  getWallet(useCases(context), actor, params),
);
