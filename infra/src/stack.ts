import type { Route } from '@pyb/functions/routes';
import type { Worker } from '@pyb/functions/workers';
import { Aws, CfnOutput, Duration, Fn, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { alarmOn } from './alarms';
import { CADENCE_HANDLER, CADENCE_SHOE_HANDLER, TableCadence } from './cadence';
import { MODEL_1000_TABLES, routeThrottles } from './capacity';
import { codeVersion } from './code-version';
import type { DeployConfig } from './config';
import { DataTables, pascal } from './data';
import { RegulatorFeed } from './feed';
import { FunctionStack, type FunctionStackName, functionStackOf } from './function-stacks';
import { GUARDED_OPERATIONS, type GuardedOperation, KeyGuard } from './key-policies';
import { LIVE_PUBLISHERS, LiveEvents } from './live';
import { acknowledge } from './nag';
import { Observability } from './observability';
import { playerTokenKey } from './player-token-key';
import { AuditRetention } from './retention';
import { ROUND_DEADLINE_HANDLER, ROUND_DEADLINE_SCHEDULERS, RoundDeadlines } from './round-deadlines';
import { functionRoleArn, functionRoleName, RouteFunction } from './route-function';
import { RECONCILE_HANDLER, SeamlessWallets, seamlessSecretName } from './seamless';
import { SettlementQueues } from './settlement';
import { ShoeCloseDeadlines } from './shoe-deadlines';
import { statementSigningKeys } from './signing-keys';
import { apiCors, WebSite } from './site';

export interface PuntoYBancaStackProps extends StackProps {
  config: DeployConfig;
  /** functions/src/routes.ts: one function and one route per entry. */
  routes: readonly Route[];
  /** functions/src/workers.ts: one function per queue consumer. */
  workers: readonly Worker[];
}

/**
 * The whole service for one stage: HTTP API -> one Lambda per route -> DynamoDB tables and KMS keys,
 * with least-privilege roles, log retention and alarms.
 */
export class PuntoYBancaStack extends Stack {
  readonly functions: Record<string, RouteFunction> = {};
  /** The nested stacks of functions (function-stacks.ts), by name: only those that hold a function. */
  readonly functionStacks: Partial<Record<FunctionStackName, FunctionStack>> = {};
  readonly api: apigwv2.HttpApi;

  constructor(scope: Construct, id: string, props: PuntoYBancaStackProps) {
    super(scope, id, props);
    const { config, routes, workers } = props;
    const prefix = `pyb-${config.stage}`;
    const logRetention = config.logRetentionDays as logs.RetentionDays;

    // The game table's stream feeds the archiver (retention.ts): shoes reaching CLOSED.
    const data = new DataTables(this, 'Data', {
      namePrefix: prefix,
      streams: { game: dynamodb.StreamViewType.NEW_IMAGE },
    });
    const settlement = new SettlementQueues(this, 'Settlement', { stage: config.stage });
    // Seamless wallets: the credit/rollback outbox, the operators' secrets, daily reconciliation.
    const seamless = new SeamlessWallets(this, 'Seamless', {
      stage: config.stage,
      operators: config.seamlessOperators,
    });
    const queues = { ...settlement.byName, ...seamless.byName };

    // Seeds are stored only sealed under this key (brief §5); it decrypts only in the functions that
    // deal (resolve) or reveal (close). Kept on stack deletion: open shoes' seeds depend on it. KMS
    // rotates its material yearly and still decrypts what older material sealed.
    const sealKey = new kms.Key(this, 'SeedSealKey', {
      description: `Punto y Banca ${config.stage}: seals shoe server seeds (encryption context = shoe)`,
      enableKeyRotation: true,
      rotationPeriod: Duration.days(365),
      removalPolicy: RemovalPolicy.RETAIN,
      pendingWindow: Duration.days(30),
    });
    // Signs shoe statements and audit chain heads; verifiers check with its public key. Every
    // generation stays in the stack (signing-keys.ts); only the newest signs.
    const signing = statementSigningKeys(
      this,
      config.stage,
      config.signingKeyGeneration,
      config.signingKeyHandover,
    );
    // Aliases are their own constructs so that a new signing key moves the alias instead of
    // creating a second one with the same name.
    new kms.Alias(this, 'SeedSealAlias', { aliasName: `alias/${prefix}-seed-seal`, targetKey: sealKey });
    new kms.Alias(this, 'StatementSigningAlias', {
      aliasName: `alias/${prefix}-statement-signing`,
      targetKey: signing.current,
    });

    // Players' access tokens: signed only by the session functions (player-token-key.ts).
    const tokenKey = playerTokenKey(
      this,
      config.stage,
      routes.filter((r) => r.tokens === 'sign').map((r) => functionRoleArn(config.stage, r.handler)),
    );

    // What functions/src/context.ts reads. Every function gets every name: the composition root builds
    // all adapters at start, and a name is not a permission (each role below is).
    const environment: Record<string, string> = {
      STAGE: config.stage,
      NODE_ENV: 'production',
      KEY_SERVICE: 'kms',
      SEED_KEY_ID: sealKey.keyArn,
      SIGNING_KEY_ID: signing.current.keyArn,
      SETTLEMENT_QUEUE_URL: settlement.queue.queueUrl,
      // Every shoe's order waits for a drand quicknet round (docs/provably-fair.md §5).
      BEACON: 'drand',
      CODE_VERSION: codeVersion(),
      TOKEN_KEY_ID: tokenKey.keyArn,
      LAUNCH_URL: config.launchUrl,
      ...(config.liveBrowserUrl !== undefined && { LIVE_BROWSER_URL: config.liveBrowserUrl }),
      ...seamless.environment,
    };
    for (const [logical, table] of Object.entries(data.tables)) {
      environment[`TABLE_${logical.toUpperCase()}`] = table.tableName;
    }
    // Live events on IoT Core (live.ts): the region's ATS data endpoint, the authorizer browsers use.
    environment.LIVE_IOT_ENDPOINT = `https://data-ats.iot.${Aws.REGION}.${Aws.URL_SUFFIX}`;
    const live = new LiveEvents(this, 'Live', {
      stage: config.stage,
      environment: { ...environment },
      logRetention,
      sessions: data.tables.sessions,
      tokenKey,
    });

    const accessLogs = new logs.LogGroup(this, 'ApiAccessLogs', {
      retention: logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.api = new apigwv2.HttpApi(this, 'Api', {
      apiName: prefix,
      description: `Punto y Banca game-round API (${config.stage})`,
      createDefaultStage: false,
      corsPreflight: apiCors(config.corsOrigins),
    });
    const stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: config.apiRateLimit, burstLimit: config.apiBurstLimit },
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(accessLogs),
        format: apigw.AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTimeEpoch',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });

    const topic = new sns.Topic(this, 'AlarmTopic', {
      topicName: `${prefix}-alarms`,
      displayName: `Punto y Banca ${config.stage} alarms`,
      enforceSSL: true,
    });
    if (config.alarmEmail) topic.addSubscription(new subscriptions.EmailSubscription(config.alarmEmail));
    const alarmAction = new actions.SnsAction(topic);

    // An ended shoe not closed in time raises an alarm (EventBridge Scheduler, one schedule per shoe).
    const deadlines = new ShoeCloseDeadlines(this, 'CloseDeadlines', {
      stage: config.stage,
      deadlineSeconds: config.shoeCloseDeadlineSeconds,
      game: data.tables.game,
      environment: { ...environment },
      logRetention,
      alarmAction,
    });
    Object.assign(environment, deadlines.environment);
    // A round stuck in a state past its deadline is acted on by the interrupted-game policy
    // (EventBridge Scheduler, a schedule per round deadline, invoking the round-deadline worker).
    const roundDeadlines = new RoundDeadlines(this, 'RoundDeadlines', { stage: config.stage, alarmAction });
    Object.assign(environment, roundDeadlines.environment);

    const stackFor = (entry: Route | Worker): FunctionStack => {
      const name = functionStackOf(entry);
      this.functionStacks[name] ??= new FunctionStack(this, name, { stage: config.stage });
      return this.functionStacks[name];
    };

    for (const route of routes) {
      if (this.functions[route.handler]) throw new Error(`routes.ts lists handler '${route.handler}' twice`);
      const scope = stackFor(route);
      const fn = new RouteFunction(scope, pascal(route.handler), {
        stage: config.stage,
        route,
        tables: data.tables,
        keys: { seal: [sealKey], sign: signing.signers, verify: signing.generations },
        environment,
        logRetention,
        queues,
        operatorSecrets: seamless.operatorSecrets,
        tokenKey,
        timeStampAuthorities: config.timeStampAuthorities,
      });
      this.functions[route.handler] = fn;
      for (const alarm of fn.alarms) alarm.addAlarmAction(alarmAction);

      // In the function's stack: the route, its integration and the invoke permission.
      const httpRoute = new apigwv2.HttpRoute(scope, `${pascal(route.handler)}Route`, {
        httpApi: this.api,
        routeKey: apigwv2.HttpRouteKey.with(
          route.path,
          route.method === 'GET' ? apigwv2.HttpMethod.GET : apigwv2.HttpMethod.POST,
        ),
        integration: new HttpLambdaIntegration(`${pascal(route.handler)}Integration`, fn.function),
      });
      acknowledge(
        httpRoute,
        'AwsSolutions-APIG4',
        route.singleUse && route.roles.length === 0 && !route.players
          ? `${route.method} ${route.path} takes no API key by design: the single-use launch or refresh token ` +
              'in its body is the credential, spent by a conditional write in the sessions table.'
          : route.roles.length === 0 && !route.players
            ? `${route.method} ${route.path} has no roles in routes.ts: public by design, it serves published, ` +
              'non-secret material (the statement-signing public key, the OpenAPI document).'
            : `${route.method} ${route.path} authenticates in the handler: an 'Authorization: Bearer' API key ` +
              `is hashed and looked up in the principals table, then role (${route.roles.join(', ') || 'none'}) ` +
              `${route.players ? 'or a player access token (ES256 JWT, its session read) ' : ''}` +
              'and tenancy are enforced by the use case. A gateway authorizer would duplicate that on every call.',
      );
    }

    const retention = new AuditRetention(this, 'Retention', {
      config,
      tables: data.tables,
      verifyKeys: signing.generations,
      environment,
      alarmTopic: alarmAction,
    });

    // The regulator feed: daily files per operator (EventBridge Scheduler → job), read by the feed routes.
    const feed = new RegulatorFeed(this, 'Feed', {
      config,
      tables: data.tables,
      environment,
      accessLogs: retention.accessLogs,
      alarmTopic: alarmAction,
    });
    for (const route of routes) {
      if (route.buckets?.includes('feed')) {
        const fn = this.functions[route.handler]!;
        feed.allowRead(fn.role, fn.function);
      }
    }

    // The stage's route settings name the routes: it is updated after the stacks that create them.
    for (const nested of Object.values(this.functionStacks)) stage.node.addDependency(nested);
    // Per-route throttles from the capacity model (infra/src/capacity.ts, docs/deploy.md).
    const throttles = routeThrottles(MODEL_1000_TABLES);
    // RouteSettings is passed to CloudFormation as is (a JSON map): its property names, not CDK's.
    (stage.node.defaultChild as apigwv2.CfnStage).routeSettings = Object.fromEntries(
      routes
        .filter((r) => throttles[r.handler])
        .map((r) => [
          `${r.method} ${r.path}`,
          {
            ThrottlingRateLimit: throttles[r.handler]!.rateLimit,
            ThrottlingBurstLimit: throttles[r.handler]!.burstLimit,
          },
        ]),
    );

    // Queue consumers (functions/src/workers.ts): least-privilege roles like the routes'.
    for (const worker of workers) {
      const fn = new RouteFunction(stackFor(worker), pascal(worker.handler), {
        stage: config.stage,
        route: worker,
        tables: data.tables,
        keys: { seal: [sealKey], sign: signing.signers, verify: signing.generations },
        environment,
        logRetention,
        queues,
        operatorSecrets: seamless.operatorSecrets,
        timeStampAuthorities: config.timeStampAuthorities,
      });
      this.functions[worker.handler] = fn;
      for (const alarm of fn.alarms) alarm.addAlarmAction(alarmAction);
      if (worker.consumes === 'settlement') settlement.consumeWith(fn);
      else if (worker.consumes === 'outbox') seamless.consumeWith(fn);
      else if (worker.handler === RECONCILE_HANDLER) seamless.scheduleReconciliation(fn);
      else if (worker.handler === CADENCE_HANDLER) {
        // The state machine's Retry waits for the beacon round: the step never sleeps for it.
        fn.function.addEnvironment('BEACON_WAIT_MS', '0');
        // The cadence's shoe opener: the state machine invokes it (below), as it does cadence-step.
      } else if (worker.handler === ROUND_DEADLINE_HANDLER) {
        // Invoked by the round deadlines' schedules (RoundDeadlines: its invoke role, by name).
      } else if (worker.handler !== CADENCE_SHOE_HANDLER)
        throw new Error(`workers.ts: '${worker.handler}' consumes no queue and has no schedule`);
    }
    for (const alarm of [...settlement.alarms, ...seamless.alarms]) alarm.addAlarmAction(alarmAction);

    // Tables that run themselves: each round one Step Functions execution (docs/architecture.md).
    const cadenceStep = this.functions[CADENCE_HANDLER];
    const cadenceShoe = this.functions[CADENCE_SHOE_HANDLER];
    if (Boolean(cadenceStep) !== Boolean(cadenceShoe))
      throw new Error(
        `workers.ts: the cadence needs both '${CADENCE_HANDLER}' and '${CADENCE_SHOE_HANDLER}'`,
      );
    if (cadenceStep && cadenceShoe) {
      const cadence = new TableCadence(this, 'Cadence', {
        stage: config.stage,
        step: cadenceStep.function,
        shoe: cadenceShoe.function,
        logRetention,
        alarmAction,
      });
      for (const entry of [...routes, ...workers]) {
        const fn = this.functions[entry.handler];
        if (entry.cadence && fn) cadence.allowStarting(fn.function, fn.role);
      }
    }
    for (const handler of LIVE_PUBLISHERS) {
      const fn = this.functions[handler];
      if (fn) live.allowPublishing(fn.role, `${prefix}-${handler}`);
    }
    for (const alarm of live.alarms) alarm.addAlarmAction(alarmAction);

    const observability = new Observability(this, 'Observability', {
      stage: config.stage,
      routes,
      functions: this.functions,
      tables: data.tables,
      queue: settlement.queue,
      deadLetters: settlement.deadLetters,
      worker: this.functions['settle-batch'],
    });
    for (const alarm of observability.alarms) alarm.addAlarmAction(alarmAction);

    // The functions that claim cards end shoes (a deal, or a dealer-error void that burns the coup's
    // cards), so they schedule their close deadline: resolve, void, and the cadence's deal step.
    for (const handler of ['resolve-round', 'void-round', CADENCE_HANDLER]) {
      const fn = this.functions[handler];
      if (fn) deadlines.allowScheduling(fn.role);
    }
    for (const handler of ROUND_DEADLINE_SCHEDULERS) {
      const fn = this.functions[handler];
      if (fn) roundDeadlines.allowScheduling(fn.role);
    }
    // The key policies allow Encrypt, Decrypt and Sign only to the functions that call them, and the
    // key guard alarms on those and GenerateRandom by anyone else (key-policies.ts). The settle-batch
    // worker signs too: the batch that finishes a round signs its head. By the roles' names
    // (function-stacks.ts): the roles are in the nested stacks, the keys here. No other role of the
    // stage (the archiver, the feed job, the close-deadline check) calls any of these.
    const rolesWith = (op: GuardedOperation) =>
      [...routes, ...workers]
        .filter((r) => r.kms.includes(op))
        .map((r) => functionRoleName(config.stage, r.handler))
        .sort();
    new KeyGuard(this, 'KeyGuard', {
      stage: config.stage,
      sealKey,
      signingKeys: signing.signers,
      allSigningKeys: signing.generations,
      roles: Object.fromEntries(GUARDED_OPERATIONS.map((op) => [op, rolesWith(op)])) as Record<
        GuardedOperation,
        string[]
      >,
      logRetention,
      alarmAction,
    });

    alarmOn(this, 'Api5xxAlarm', {
      action: alarmAction,
      description: `API (${config.stage}): requests answered with a 5xx`,
      metric: stage.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }),
    });

    // No function has reserved concurrency: every one draws on the Region's concurrency pool, so a
    // throttle anywhere means that pool is exhausted. One alarm on the Region's Lambda throttles
    // (a stage per account, docs/deploy.md) instead of one per function: the stack stays well under
    // CloudFormation's 500 resources (docs/deploy.md, "Alarms").
    alarmOn(this, 'LambdaThrottlesAlarm', {
      action: alarmAction,
      description: `Lambda (${config.stage}): invocations throttled in this Region (concurrency pool exhausted)`,
      metric: new cloudwatch.Metric({
        namespace: 'AWS/Lambda',
        metricName: 'Throttles',
        statistic: 'Sum',
        period: Duration.minutes(5),
      }),
    });

    new WebSite(this, 'Web', {
      stage: config.stage,
      api: this.api,
      logRetentionDays: config.logRetentionDays,
      domain: config.siteDomain,
      ...(config.liveBrowserUrl !== undefined && { liveBrowserUrl: config.liveBrowserUrl }),
    });

    new CfnOutput(this, 'ApiUrl', { value: stage.url });
    new CfnOutput(this, 'Stage', { value: config.stage });
    new CfnOutput(this, 'SealKeyArn', { value: sealKey.keyArn });
    new CfnOutput(this, 'SigningKeyArn', { value: signing.current.keyArn });
    // Every generation, oldest first: the keys verifiers may meet in statements (current one last).
    new CfnOutput(this, 'SigningKeyArns', {
      value: Fn.join(
        ',',
        signing.generations.map((k) => k.keyArn),
      ),
    });
    new CfnOutput(this, 'AlarmTopicArn', { value: topic.topicArn });
    new CfnOutput(this, 'AuditArchiveBucket', { value: retention.archive.bucketName });
    new CfnOutput(this, 'BackupVaultName', { value: retention.vault.backupVaultName });
    new CfnOutput(this, 'ArchiverDlqUrl', { value: retention.deadLetters.queueUrl });
    new CfnOutput(this, 'RetentionDays', { value: String(config.retentionDays) });
    new CfnOutput(this, 'SettlementQueueUrl', { value: settlement.queue.queueUrl });
    new CfnOutput(this, 'OutboxQueueUrl', { value: seamless.queue.queueUrl });
    new CfnOutput(this, 'OutboxDlqUrl', { value: seamless.deadLetters.queueUrl });
    for (const operatorId of seamless.secrets.keys()) {
      new CfnOutput(this, `SeamlessSecret${pascal(operatorId)}`, {
        description: `operator ${operatorId}: the secretRef of its record; share the value with the operator`,
        value: seamlessSecretName(config.stage, operatorId),
      });
    }
    new CfnOutput(this, 'DashboardName', { value: `pyb-${config.stage}` });
    for (const [logical, table] of Object.entries(data.tables)) {
      new CfnOutput(this, `${pascal(logical)}TableName`, { value: table.tableName });
    }
  }
}
