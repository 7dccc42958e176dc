/**
 * Live events on AWS IoT Core (docs/deploy.md, "Live events"): the custom authorizer browsers connect
 * through (MQTT over WebSockets, the player's access token; functions/src/live-authorizer.ts), its
 * Lambda, and the one permission the publishing functions get: iot:Publish on the live topics alone
 * (no Connect, no Subscribe, nothing else of IoT). Alarms: the authorizer failing or throttled, and any
 * publish the broker refused (LivePublishFailed; the events stay in the feed and are re-published).
 */
import { Aws, Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as iot from 'aws-cdk-lib/aws-iot';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { alarmOn } from './alarms';
import type { DeployedTable } from './data';
import { jobFunction } from './jobs';
import { acknowledge } from './nag';

export const LIVE_AUTHORIZER_HANDLER = 'jobs/live-authorizer';
/** The topics functions/src/live.ts publishes to (core live/topics.ts LIVE_ROOT). */
export const LIVE_TOPICS = 'pyb/v1/*';
/** The handlers that publish the table's live events after they commit (functions/src/live.ts). */
export const LIVE_PUBLISHERS = [
  'open-shoe',
  'open-round',
  'place-bet',
  'close-betting',
  'resolve-round',
  'void-round',
  'close-shoe',
  'unlock-table',
  'set-table-availability',
  'abandon-shoe',
  'cadence-step',
  'cadence-open-shoe',
  'round-deadline',
  'settle-batch',
] as const;

export interface LiveEventsProps {
  stage: string;
  environment: Record<string, string>;
  logRetention: logs.RetentionDays;
  sessions: DeployedTable;
  tokenKey: kms.IKey;
}

export class LiveEvents extends Construct {
  readonly authorizer: iot.CfnAuthorizer;
  readonly alarms: cloudwatch.Alarm[];
  readonly functionName: string;

  constructor(scope: Construct, id: string, props: LiveEventsProps) {
    super(scope, id);
    const prefix = `pyb-${props.stage}`;
    const { account } = Stack.of(this);
    this.functionName = `${prefix}-live-authorizer`;
    const { fn, role } = jobFunction(this, 'Authorizer', {
      functionName: this.functionName,
      description:
        "IoT Core custom authorizer: a player's access token -> subscribe to his table and his own topic",
      roleDescription: `verifies player tokens for live connections (${props.stage})`,
      handler: LIVE_AUTHORIZER_HANDLER,
      memorySize: 512,
      timeout: Duration.seconds(5),
      logRetention: props.logRetention,
      environment: { ...props.environment, AWS_ACCOUNT_ID: account },
    });
    // What authenticatePlayer reads: the session and the revocation marker, and the token key's public half.
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'SessionsRead',
        actions: ['dynamodb:GetItem'],
        resources: [props.sessions.tableArn],
      }),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'KmsPlayerTokenPublicKey',
        actions: ['kms:GetPublicKey'],
        resources: [props.tokenKey.keyArn],
      }),
    );
    this.authorizer = new iot.CfnAuthorizer(this, 'PlayerAuthorizer', {
      authorizerName: `${prefix}-players`,
      authorizerFunctionArn: fn.functionArn,
      status: 'ACTIVE',
      // Browsers send the player's token, not a request signed with an IoT token-signing key.
      signingDisabled: true,
      enableCachingForHttp: false,
    });
    fn.addPermission('IotInvoke', {
      principal: new iam.ServicePrincipal('iot.amazonaws.com'),
      sourceArn: this.authorizer.attrArn,
      sourceAccount: account,
    });
    this.alarms = [
      alarmOn(this, 'AuthorizerErrorsAlarm', {
        description: `live (${props.stage}): the IoT authorizer failed; browsers cannot connect (they still read GET /v1/tables/{tableId}/live)`,
        metric: fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
      }),
      alarmOn(this, 'AuthorizerThrottlesAlarm', {
        description: `live (${props.stage}): the IoT authorizer is throttled (connection storm or concurrency limit)`,
        metric: fn.metricThrottles({ period: Duration.minutes(5), statistic: 'Sum' }),
      }),
    ];
  }

  /** iot:Publish on the live topics, and nothing else of IoT, for a publishing function's role. */
  allowPublishing(role: iam.Role, functionName: string): void {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'IotPublishLive',
        actions: ['iot:Publish'],
        // The pseudo parameters, not the stack's Region and account: those are concrete strings when the CLI
        // knows them, and the acknowledgement below must not depend on that.
        resources: [`arn:${Aws.PARTITION}:iot:${Aws.REGION}:${Aws.ACCOUNT_ID}:topic/${LIVE_TOPICS}`],
      }),
    );
    acknowledge(
      role,
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:iot:<AWS::Region>:<AWS::AccountId>:topic/pyb/v1/*]',
      'iot:Publish on the live topics: one topic per table and per player (pyb/v1/<operator>/tables/<id>, ' +
        '…/players/<id>), created as tables and players come, so the resource names their prefix; no other IoT action.',
    );
    this.alarms.push(
      alarmOn(this, `PublishFailed${functionName.replace(/[^A-Za-z0-9]/g, '')}Alarm`, {
        description: `live (${functionName}): IoT Core refused a publish; the events stay in the feed and the next call on the table publishes them again`,
        metric: new cloudwatch.Metric({
          namespace: 'PuntoYBanca',
          metricName: 'LivePublishFailed',
          dimensionsMap: { service: functionName },
          period: Duration.minutes(5),
          statistic: 'Sum',
        }),
      }),
    );
  }
}
