import { ROUTES, type Route } from '@pyb/functions/routes';
import { WORKERS, type Worker } from '@pyb/functions/workers';
import { App, type AppProps, type Environment, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readConfig } from './config';
import { PuntoYBancaStack } from './stack';

export interface BuiltApp {
  app: App;
  stack: PuntoYBancaStack;
}

/**
 * The CDK app: one stack per stage, cdk-nag's AwsSolutions pack as a synth-time policy check (cdk-nag 3
 * plugs into CDK validation, so an unacknowledged finding fails the synth). Shared by bin/app.ts and
 * the tests so they synthesise the same thing.
 */
export function buildApp(
  props: AppProps = {},
  routes: readonly Route[] = ROUTES,
  workers: readonly Worker[] = routes.length === 0 ? [] : WORKERS,
  // Environment-agnostic unless the CLI knows an account and Region: synth needs no AWS account.
  env: Environment = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
): BuiltApp {
  const app = new App(props);
  const config = readConfig(app.node);
  // The first step of moving an existing stage to the function stacks (docs/deploy.md, "Stacks"):
  // the stage without its functions and routes, so the next deploy can create them in their stacks.
  const without = String(app.node.tryGetContext('withoutFunctions') ?? 'false') === 'true';
  const stack = new PuntoYBancaStack(app, `PuntoYBanca-${config.stage}`, {
    config,
    routes: without ? [] : routes,
    workers: without ? [] : workers,
    description: `Punto y Banca game-round service (${config.stage})`,
    env,
    tags: { project: 'punto-y-banca', stage: config.stage },
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack };
}
