import { getOperatorWalletContract } from '@pyb/contracts';
import { getOperatorWallet } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { getOperatorWalletRoute } from '../src/routes';

export const handler = httpHandler(
  getOperatorWalletRoute,
  getOperatorWalletContract,
  ({ context, actor, params }) => getOperatorWallet(useCases(context), actor, params),
);
