import { ENDPOINTS } from '@pyb/contracts';
import { shoeProof } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler('get-proof', ENDPOINTS['get-proof'], ({ context, params }) =>
  shoeProof(useCases(context), params),
);
