import { getProofContract } from '@pyb/contracts';
import { shoeProof } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { getProofRoute } from '../src/routes';

export const handler = httpHandler(getProofRoute, getProofContract, ({ context, params }) =>
  shoeProof(useCases(context), params),
);
