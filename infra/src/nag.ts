import { Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { rules } from 'cdk-nag';
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

/**
 * Acknowledges the AwsSolutions-IAM5 (wildcard) findings of the IAM policies under `scope` whose
 * finding matches one of `patterns` — by the policy's shape, not by a string that bakes in what the
 * synth happened to know. An exact acknowledgement misses as soon as the finding is rendered another
 * way: the CDK assets bucket's name holds the Region and account when the CLI knows them
 * (`cdk-hnb659fds-assets-<AWS::AccountId>-eu-west-3/*`), and a resource of another stack is a
 * parameter (`<referenceto…Arn>/feed/*`) in a nested stack.
 *
 * The findings are cdk-nag's own (its IAM5 rule run on each policy), computed in the construct
 * validation phase: after the CDK has resolved cross-stack references and before cdk-nag's plugin
 * runs. A pattern that matches no finding fails the synth, so an acknowledgement cannot outlive
 * the wildcard it was written for.
 */
export function acknowledgeWildcards(scope: IConstruct, patterns: readonly RegExp[], reason: string): void {
  if (reason.trim().length < 20) throw new Error('a cdk-nag acknowledgement needs a real reason (IAM5)');
  // The CDK may validate the tree more than once (a synth per stage, nested stacks): acknowledge once.
  const done = new Set<string>();
  scope.node.addValidation({
    validate: () => {
      const unmatched = new Set(patterns);
      for (const node of scope.node.findAll()) {
        if (!(node instanceof iam.CfnPolicy) && !(node instanceof iam.CfnRole)) continue;
        const findings = rules.iam.IAMNoWildcardPermissions(node);
        if (!Array.isArray(findings)) continue;
        for (const finding of findings) {
          const matching = patterns.filter((p) => p.test(finding));
          if (matching.length === 0) continue;
          for (const p of matching) unmatched.delete(p);
          const id = `AwsSolutions-IAM5[${finding}]`;
          if (done.has(`${node.node.path} ${id}`)) continue;
          done.add(`${node.node.path} ${id}`);
          acknowledge(node, id, reason);
        }
      }
      return [...unmatched].map(
        (p) => `cdk-nag acknowledgement ${p} matches no wildcard of ${scope.node.path}: remove it`,
      );
    },
  });
}
