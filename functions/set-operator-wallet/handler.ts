import { setOperatorWalletContract } from '@pyb/contracts';
import { setOperatorWallet } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { setOperatorWalletRoute } from '../src/routes';

export const handler = httpHandler(
  setOperatorWalletRoute,
  setOperatorWalletContract,
  ({ context, actor, params, body }) => setOperatorWallet(useCases(context), actor, { ...params, ...body }),
);
