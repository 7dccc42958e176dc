import { ENDPOINTS } from '@pyb/contracts';
import { getWallet } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler('get-wallet', ENDPOINTS['get-wallet'], ({ context, actor, params }) =>
  getWallet(useCases(context), actor, params),
);
