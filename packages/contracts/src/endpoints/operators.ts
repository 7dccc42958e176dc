import type { EndpointContract } from '../endpoint-contract';
import { KeyIdentity, OperatorWallet, OperatorWalletParams, SetOperatorWalletRequest } from '../operators';

/** The endpoint contracts of the Operators tag: the calling key, an operator's wallet mode (one export per endpoint: endpoint-contract.ts). */

export const getKeyIdentityContract = {
  tag: 'Operators',
  problems: [],
  summary: 'Who this API key is: its operator, its role and what that role may do',
  description:
    "For a console: offer the controls the key may use (an operator key does not open or close shoes: that is the admin key's) and say which key the others need. API keys only (a player token learns its player from its session).",
  response: KeyIdentity,
  status: 200,
} satisfies EndpointContract;

export const getOperatorWalletContract = {
  tag: 'Operators',
  problems: ['OPERATOR_NOT_FOUND'],
  summary: "An operator's wallet mode, its seamless wallet and every change of them",
  description:
    "Hosted (the platform's wallets) or seamless (the operator's wallet API, its base URL and the reference of its signing secret — never the secret), with who changed it when. Readable by the operator's own keys, its regulators and platform-admin keys; an operator never set is hosted (`updatedAt: null`).",
  params: OperatorWalletParams,
  response: OperatorWallet,
  status: 200,
} satisfies EndpointContract;

export const setOperatorWalletContract = {
  tag: 'Operators',
  problems: [
    'PLATFORM_ADMIN_REQUIRED',
    'SEAMLESS_CONFIG_INVALID',
    'OPERATOR_WALLET_BUSY',
    'CONCURRENT_UPDATE',
  ],
  summary: "Switch an operator's wallet mode, hosted or seamless (platform admin)",
  description:
    'Sets the operator\'s wallet mode (and, seamless, its wallet: https base URL, the operator\'s own Secrets Manager secret). The same mode and wallet again changes nothing. Changing the mode is refused (409 OPERATOR_WALLET_BUSY) while a round of the operator holds bets, or, leaving seamless, while a seamless transaction of the last 24 hours is not final; every change is recorded (who, when, old and new). Containers see it within 60 s (`effectiveBy`). Platform-admin keys only (docs/deploy.md, "Seamless operators").',
  params: OperatorWalletParams,
  body: SetOperatorWalletRequest,
  response: OperatorWallet,
  status: 200,
} satisfies EndpointContract;
