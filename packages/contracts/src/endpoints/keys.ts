import type { EndpointContract } from '../endpoint-contract';
import { SigningKey, SigningKeyQuery } from '../shoes';

/** The endpoint contracts of the Keys tag: the signing keys (one export per endpoint: endpoint-contract.ts). */

export const getSigningKeyContract = {
  tag: 'Keys',
  problems: ['SIGNING_KEY_NOT_FOUND'],
  summary: 'The public key that signs shoe statements and audit heads, with its validity',
  description:
    'Without `keyId`, the key that signs now. With the `keyId` a statement names, that key, also after a key rotation retired it. Each comes with its certificate: its generation and the interval it may sign in, signed by the generation before it, and `certificates`: the certificate of every generation, oldest first, the chain a verifier pins. 404 SIGNING_KEY_NOT_FOUND for a key id the service does not know.',
  query: SigningKeyQuery,
  response: SigningKey,
  status: 200,
} satisfies EndpointContract;
