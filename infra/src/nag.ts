import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Acknowledges a cdk-nag finding on one construct (and its children). cdk-nag 3 runs as a CDK policy
 * validation plugin, so acknowledgements are CDK's own `Validations.acknowledge`; the reason is
 * required and lands in the construct metadata for audit.
 */
export function acknowledge(scope: IConstruct, id: string, reason: string): void {
  if (reason.trim().length < 20) throw new Error(`a cdk-nag acknowledgement needs a real reason (${id})`);
  Validations.of(scope).acknowledge({ id, reason });
}
