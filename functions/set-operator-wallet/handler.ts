import { ENDPOINTS } from '@pyb/contracts';
import { setOperatorWallet } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'set-operator-wallet',
  ENDPOINTS['set-operator-wallet'],
  ({ context, actor, params, body }) => setOperatorWallet(useCases(context), actor, { ...params, ...body }),
);
