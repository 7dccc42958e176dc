import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { contentSecurityPolicy, SECURITY_HEADERS } from '@pyb/web/site';
import {
  AssetHashType,
  CfnOutput,
  DockerImage,
  Duration,
  type ILocalBundling,
  RemovalPolicy,
  Stack,
} from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { REPO_ROOT } from './esbuild-options';
import { acknowledge, acknowledgeWildcards } from './nag';

/**
 * The web app (web/: the table, the verifier, the regulator viewer) on S3 + CloudFront:
 *
 * - the bucket is private (all public access blocked, SSL enforced); CloudFront reads it through an
 *   origin access control, nobody else can;
 * - CloudFront answers HTTPS only, with the site's security headers (web/site.ts: the CSP has no
 *   'unsafe-inline' and no third-party origin) plus HSTS;
 * - `/v1/*` goes to the stage's HTTP API, uncached, so the pages call the API same-origin exactly as
 *   they do behind `./scripts/dev` (`connect-src 'self'`); front ends on other origins use the API's
 *   CORS, which admits only the configured origins (`apiCors`);
 * - a CloudFront function maps a page path to its file by the rule the local server uses
 *   (web/site.ts `siteFile`): `/verify` -> `/verify/index.html`.
 *
 * The site is built with Vite at synth time, like the handlers with esbuild (no Docker).
 */

/** cloudfront-js-2.0; the same rule as web/site.ts `siteFile` (infra/test/site.test.ts runs both). */
export const PAGE_PATH_FUNCTION = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri.endsWith('/')) {
    request.uri = uri + 'index.html';
  } else if (uri.substring(uri.lastIndexOf('/') + 1).indexOf('.') === -1) {
    request.uri = uri + '/index.html';
  }
  return request;
}`;

/** The API's CORS: the configured origins only, and only what a front end needs; none configured, none. */
export function apiCors(origins: readonly string[]): apigwv2.CorsPreflightOptions | undefined {
  if (origins.length === 0) return undefined;
  return {
    allowOrigins: [...origins],
    allowMethods: [apigwv2.CorsHttpMethod.GET, apigwv2.CorsHttpMethod.POST, apigwv2.CorsHttpMethod.OPTIONS],
    allowHeaders: ['authorization', 'content-type', 'idempotency-key', 'x-request-id', 'x-correlation-id'],
    exposeHeaders: ['x-request-id', 'idempotency-replayed', 'www-authenticate'],
    allowCredentials: false,
    maxAge: Duration.hours(1),
  };
}

const WEB_ROOT = join(REPO_ROOT, 'web');
let built: string | undefined;

/**
 * `vite build` of web/ into the asset's output folder, once per process (every synth of a test run
 * copies the first build: Vite's output is content-hashed, so it is the same build).
 */
class ViteLocalBundling implements ILocalBundling {
  tryBundle(outputDir: string): boolean {
    if (!built) {
      const out = mkdtempSync(join(tmpdir(), 'pyb-site-'));
      const vitePackage = createRequire(join(REPO_ROOT, 'package.json')).resolve('vite/package.json');
      const vite = join(dirname(vitePackage), 'bin', 'vite.js');
      execFileSync(
        process.execPath,
        [vite, 'build', WEB_ROOT, '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'],
        {
          cwd: REPO_ROOT,
          stdio: ['ignore', 'ignore', 'inherit'],
        },
      );
      built = out;
    }
    cpSync(built, outputDir, { recursive: true });
    return true;
  }
}

/** The built site as a deployment source. */
export const builtSite = (): s3deploy.ISource =>
  s3deploy.Source.asset(WEB_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    exclude: ['node_modules', 'dist', 'test', 'test-results'],
    bundling: {
      local: new ViteLocalBundling(),
      // Never pulled: the local build above either succeeds or throws. The CDK requires an image.
      image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22'),
    },
  });

export interface WebSiteProps {
  stage: string;
  api: apigwv2.IHttpApi;
  logRetentionDays: number;
  /** The site's own domain and its us-east-1 ACM certificate (default: the *.cloudfront.net name). */
  domain?: { name: string; certificateArn: string };
  /** What to upload (default: the Vite build of web/). */
  source?: s3deploy.ISource;
  /** The game client's live channel (config `liveBrowserUrl`): a wss origin is added to `connect-src`. */
  liveBrowserUrl?: string;
}

export class WebSite extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;

  constructor(scope: Construct, id: string, props: WebSiteProps) {
    super(scope, id);
    const stack = Stack.of(this);

    // CloudFront standard logs are written with ACLs: this bucket alone allows them (object writer).
    const logs = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(props.logRetentionDays) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(
      logs,
      'AwsSolutions-S1',
      'This is the access-log bucket of the site; logging it into itself would loop. CloudFront writes here.',
    );

    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 's3/',
      // Only build output lives here: every deploy uploads it again.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const headers = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: `Punto y Banca ${props.stage}: security headers of the site (web/site.ts)`,
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: contentSecurityPolicy(props.liveBrowserUrl),
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(365 * 2),
          includeSubdomains: true,
          override: true,
        },
      },
      customHeadersBehavior: {
        customHeaders: ['Permissions-Policy', 'Cross-Origin-Opener-Policy'].map((header) => ({
          header,
          value: SECURITY_HEADERS[header]!,
          override: true,
        })),
      },
    });

    const pagePaths = new cloudfront.Function(this, 'PagePaths', {
      comment: 'Page path -> its file: /verify -> /verify/index.html (web/site.ts siteFile)',
      code: cloudfront.FunctionCode.fromInline(PAGE_PATH_FUNCTION),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    const apiDomain = `${props.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `Punto y Banca ${props.stage}: web app and /v1 API`,
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      ...(props.domain && {
        domainNames: [props.domain.name],
        certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', props.domain.certificateArn),
        minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
      }),
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        functionAssociations: [
          { function: pagePaths, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST },
        ],
        compress: true,
      },
      additionalBehaviors: {
        '/v1/*': {
          origin: new origins.HttpOrigin(apiDomain, {
            protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
            originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
          }),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          // Every answer is per key and per moment: nothing is cached; every header but Host (API
          // Gateway routes on its own host name) reaches the API, Authorization and Idempotency-Key included.
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        },
      },
    });
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR1',
      'Players and regulators of an operator may be anywhere its licence allows; the operator decides geo rules, not this stack.',
    );
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR2',
      'No WAF in this stack: the API behind /v1 authenticates every call and is throttled per stage; an operator may attach its own web ACL.',
    );
    if (!props.domain) {
      acknowledge(
        this.distribution,
        'AwsSolutions-CFR4',
        'On its *.cloudfront.net name the site has the CloudFront default certificate, whose TLS policy is fixed; a stage with -c siteDomain and -c siteCertificateArn gets TLS 1.2 (2021) at least.',
      );
    }

    new s3deploy.BucketDeployment(this, 'Upload', {
      sources: [props.source ?? builtSite()],
      destinationBucket: this.bucket,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      prune: true,
      memoryLimit: 512,
    });
    // The upload runs in the CDK's own singleton handler, a child of the stack.
    const handler = stack.node.children.find((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (!handler)
      throw new Error('BucketDeployment created no handler: aws-cdk-lib changed how it builds one');
    const why = 'The CDK BucketDeployment handler (aws-cdk-lib) syncs the built site into the site bucket';
    acknowledge(
      handler,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      `${why}; the AWS managed basic execution role only lets it write its own logs.`,
    );
    for (const finding of [
      'Action::s3:GetObject*',
      'Action::s3:GetBucket*',
      'Action::s3:List*',
      'Action::s3:DeleteObject*',
      'Action::s3:Abort*',
      `Resource::<${stack.getLogicalId(this.bucket.node.defaultChild as s3.CfnBucket)}.Arn>/*`,
      'Resource::*',
    ]) {
      acknowledge(
        handler,
        `AwsSolutions-IAM5[${finding}]`,
        `${why}: object-level wildcards on the asset and site buckets (a folder is synced), and cloudfront:CreateInvalidation, which takes no narrower resource in the CDK's grant.`,
      );
    }
    // The CDK assets bucket (where the CLI stages the site's zip): its name holds the bootstrap
    // qualifier, the account and the Region, concrete when the CLI knows them, so it is matched by shape.
    acknowledgeWildcards(
      handler,
      [/^Resource::arn:<AWS::Partition>:s3:::cdk-[a-z0-9]+-assets-[^/]+\/\*$/],
      `${why}: it reads the site's zip from the CDK assets bucket of this account and Region (object wildcard: the staged asset's key).`,
    );
    acknowledge(
      handler,
      'AwsSolutions-L1',
      `${why}; its runtime is chosen by aws-cdk-lib, not by this stack.`,
    );

    new CfnOutput(stack, 'SiteUrl', {
      value: `https://${props.domain?.name ?? this.distribution.distributionDomainName}`,
    });
    new CfnOutput(stack, 'SiteDistributionDomain', { value: this.distribution.distributionDomainName });
    new CfnOutput(stack, 'SiteBucketName', { value: this.bucket.bucketName });
  }
}
