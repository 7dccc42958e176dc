import { lazily } from '@pyb/engine';
import * as z from 'zod';
import type { EndpointContract } from '../endpoint-contract';

/** The endpoint contracts of the Meta tag: this API described (one export per endpoint: endpoint-contract.ts). */

/** An OpenAPI document (the answer of the two Meta endpoints). */
const OpenApiDocument = /* @__PURE__ */ lazily(() => z.record(z.string(), z.unknown()));

export const getSeamlessOpenapiContract = {
  tag: 'Meta',
  description:
    'The seamless wallet protocol (docs/seamless-wallet.md) as an OpenAPI 3.1 document: the API an operator in seamless mode implements (balance, debit, credit, rollback), built from the schemas the platform checks its answers with.',
  problems: [],
  summary: 'The seamless wallet protocol an operator implements, as OpenAPI 3.1',
  response: OpenApiDocument,
  status: 200,
} satisfies EndpointContract;

export const getOpenapiContract = {
  tag: 'Meta',
  description:
    'The OpenAPI 3.1 document of this API, built from the same schemas the handlers validate with.',
  problems: [],
  summary: 'This API as an OpenAPI 3.1 document',
  response: OpenApiDocument,
  status: 200,
} satisfies EndpointContract;
