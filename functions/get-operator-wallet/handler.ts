import { ENDPOINTS } from '@pyb/contracts';
import { getOperatorWallet } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'get-operator-wallet',
  ENDPOINTS['get-operator-wallet'],
  ({ context, actor, params }) => getOperatorWallet(useCases(context), actor, params),
);
