import type { Route } from '@pyb/functions/routes';
import type { Worker } from '@pyb/functions/workers';
import { NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/**
 * The stage's functions live in nested stacks by concern, each with its routes (route, integration,
 * invoke permission: 8 resources a route with the function's own five), so that no template comes near
 * CloudFormation's 500 resources as routes are added (docs/deploy.md, "Stacks"). The parent stack keeps
 * what holds data or is named by clients: tables, keys, queues, buckets, the HTTP API and its stage.
 */
export const FUNCTION_STACKS = ['Tables', 'Rounds', 'Wallets', 'Operators', 'Public'] as const;
export type FunctionStackName = (typeof FUNCTION_STACKS)[number];

/**
 * Resources a stack may hold: 60% of CloudFormation's 500 (infra/test/stack.test.ts holds each synthesised
 * stack to it), so a stack has room for the next features before it needs splitting again.
 */
export const STACK_RESOURCE_BUDGET = 300;

/** The first path segment after /v1/ decides a route's stack; a new segment must be given one here. */
const STACK_OF_SEGMENT: Record<string, FunctionStackName> = {
  tables: 'Tables',
  shoes: 'Tables',
  rounds: 'Rounds',
  players: 'Wallets',
  wallets: 'Wallets',
  operators: 'Operators',
  me: 'Operators',
  sessions: 'Wallets',
  'signing-key': 'Public',
  'openapi.json': 'Public',
  'seamless-wallet.openapi.json': 'Public',
};

/** Which nested stack a routes.ts entry or a workers.ts consumer is deployed in. */
export function functionStackOf(entry: Route | Worker): FunctionStackName {
  if (!('path' in entry)) return entry.consumes === 'settlement' ? 'Rounds' : 'Operators';
  const segment = entry.path.split('/')[2] ?? '';
  const name = STACK_OF_SEGMENT[segment];
  if (!name) {
    throw new Error(
      `routes.ts: no function stack for /v1/${segment} (${entry.handler}); add it to STACK_OF_SEGMENT in infra/src/function-stacks.ts`,
    );
  }
  return name;
}

/** One nested stack of functions (its template: cdk.out/PuntoYBanca<stage><Name>Functions<hash>.nested.template.json). */
export class FunctionStack extends NestedStack {
  constructor(scope: Construct, name: FunctionStackName, props: NestedStackProps & { stage: string }) {
    super(scope, `${name}Functions`, {
      ...props,
      description: `Punto y Banca ${props.stage}: the ${name.toLowerCase()} functions and their routes`,
    });
  }
}
