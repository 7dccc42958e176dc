import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { lazily } from '@pyb/engine';
import * as z from 'zod';
import {
  SEAMLESS_HEADERS,
  SEAMLESS_PROTOCOL,
  SeamlessAuthError,
  SeamlessBalanceRequest,
  SeamlessCreditRequest,
  SeamlessDebitRequest,
  SeamlessOk,
  SeamlessRefusal,
  SeamlessRollbackRequest,
} from './seamless-wallet';

const SignedHeaders = /* @__PURE__ */ lazily(() =>
  z.object({
    [SEAMLESS_HEADERS.timestamp]: z
      .string()
      .regex(/^[0-9]{1,12}$/)
      .meta({
        description:
          'Unix time in seconds when the message was signed. Refuse a request more than 300 s away from your clock.',
        example: '1764572400',
      }),
    [SEAMLESS_HEADERS.signature]: z
      .string()
      .regex(/^v1=[0-9a-f]{64}$/)
      .meta({
        description:
          '`v1=` + lowercase hex HMAC-SHA256, keyed by the shared secret, of `METHOD\\nPATH\\nTIMESTAMP\\nBODY` (PATH as sent, with its base path; BODY the exact bytes). During a rotation accept either of the two current secrets.',
        example: 'v1=5d41402abc4b2a76b9719d911017c592a3c7f2f8b1e6d3c0a9e8f7d6c5b4a392',
      }),
    [SEAMLESS_HEADERS.protocol]: z.literal(SEAMLESS_PROTOCOL),
  }),
);

const OPERATIONS = /* @__PURE__ */ lazily(
  () =>
    [
      {
        name: 'balance',
        body: SeamlessBalanceRequest(),
        summary: 'The player’s balance',
        description: 'Read only. The platform shows it; it never decides a bet on it (the debit does).',
      },
      {
        name: 'debit',
        body: SeamlessDebitRequest(),
        summary: 'Take a bet’s stake',
        description:
          'Apply at most once per txId; a repeat with the same body gets the first answer (also a refusal), with another body 422 TX_MISMATCH. If a rollback of this txId came first, refuse with 422 DEBIT_ROLLED_BACK. The platform never re-sends a debit whose answer it did not get: it rolls it back.',
      },
      {
        name: 'credit',
        body: SeamlessCreditRequest(),
        summary: 'Pay a payout, a refund or a commission release',
        description:
          'Apply at most once per txId; a repeat gets the first answer. Delivered at least once: the platform retries with backoff until it gets a 200, so never refuse a credit for funds or limits.',
      },
      {
        name: 'rollback',
        body: SeamlessRollbackRequest(),
        summary: 'Cancel a debit',
        description:
          'Give back the debit `debitTxId` if it was applied (`applied: true`), or remember it as cancelled if it never arrived (`applied: false`). Apply at most once per txId. Delivered at least once, like credits.',
      },
    ] as const,
);

/** The OpenAPI 3.1 document of the seamless wallet protocol: what an operator's wallet implements. */
export function buildSeamlessWalletOpenApi() {
  const registry = new OpenAPIRegistry();
  const hmac = registry.registerComponent('securitySchemes', 'pybHmac', {
    type: 'apiKey',
    in: 'header',
    name: SEAMLESS_HEADERS.signature,
    description:
      'HMAC-SHA256 request signing with a secret shared with the platform (docs/seamless-wallet.md): the signature covers method, path, timestamp and body; the timestamp must be within 300 s. Answers are signed the same way (`200\\nPATH\\nTIMESTAMP\\nBODY`, the status in place of the method) and the platform rejects an unsigned or wrongly signed answer as an unknown outcome.',
  });
  const answerHeaders = {
    [SEAMLESS_HEADERS.timestamp]: { schema: { type: 'string' as const }, required: true },
    [SEAMLESS_HEADERS.signature]: { schema: { type: 'string' as const }, required: true },
  };
  for (const op of OPERATIONS()) {
    registry.registerPath({
      method: 'post',
      path: `/${op.name}`,
      operationId: op.name,
      summary: op.summary,
      description: op.description,
      tags: ['Seamless wallet'],
      security: [{ [hmac.name]: [] }],
      request: {
        headers: SignedHeaders(),
        body: { required: true, content: { 'application/json': { schema: op.body } } },
      },
      responses: {
        '200': {
          description: 'Booked (or, for a repeat, the first answer again).',
          headers: answerHeaders,
          content: { 'application/json': { schema: SeamlessOk() } },
        },
        '401': {
          description: 'Signature or timestamp not accepted: nothing booked.',
          content: { 'application/json': { schema: SeamlessAuthError() } },
        },
        '422': {
          description: 'A definite refusal: nothing booked, and nothing will be for this txId.',
          headers: answerHeaders,
          content: { 'application/json': { schema: SeamlessRefusal() } },
        },
      },
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Punto y Banca seamless wallet protocol',
      version: SEAMLESS_PROTOCOL,
      description:
        'The wallet API an operator implements so that its players bet from their one balance in the operator’s system. The platform calls it; every call carries a transaction id stable across retries, the round and bet references, and an amount in integer minor units with its currency. Any answer other than a signed 200 or a signed 422 with these bodies is an unknown outcome to the platform. See docs/seamless-wallet.md.',
    },
    servers: [
      {
        url: 'https://wallet.operator.example/pyb',
        description: 'Your wallet’s base URL, given at onboarding.',
      },
    ],
    tags: [{ name: 'Seamless wallet', description: 'Called by the platform, implemented by the operator.' }],
  });
}
