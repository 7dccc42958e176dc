import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { CONTENT_SECURITY_POLICY, PAGES, siteFile } from '@pyb/web/site';
import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { parseCorsOrigins, parseSiteDomain } from '../src/config';
import { PAGE_PATH_FUNCTION } from '../src/site';
import { appTemplate } from './app-template';

// The web app's hosting (infra/src/site.ts) on a synth without handlers (routes = []): the site is
// built with Vite once per process, so this costs one build.

type Resource = { Type: string; Properties: Record<string, unknown> };

const outdirs: string[] = [];
const outdir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyb-cdk-site-'));
  outdirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

let template: Template;
let resources: Record<string, Resource>;
let synthDir: string;

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
// The Web construct's buckets, by logical id (Web/Bucket, Web/AccessLogs): the stack holds others
// (the retention archive and its logs).
const webBuckets = () =>
  ofType('AWS::S3::Bucket').filter(([id]) => /^Web(Bucket|AccessLogs)[0-9A-F]{8}$/.test(id));
const siteBucket = () => webBuckets().find(([id]) => id.startsWith('WebBucket'))!;
const only = (type: string): [string, Resource] => {
  const found = ofType(type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};

beforeAll(() => {
  synthDir = outdir();
  const { app, stack } = buildApp({ outdir: synthDir }, []);
  app.synth();
  template = appTemplate(stack);
  resources = template.toJSON().Resources as Record<string, Resource>;
}, 300_000);

describe('the site bucket', () => {
  it('is private: every public access blocked, SSL enforced, readable only by the distribution', () => {
    const [, distribution] = only('AWS::CloudFront::Distribution');
    const distributionId = only('AWS::CloudFront::Distribution')[0];
    const buckets = webBuckets();
    expect(buckets).toHaveLength(2); // the site and its access logs
    for (const [, bucket] of buckets) {
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties.BucketEncryption).toBeDefined();
    }
    const site = siteBucket();
    expect(site[1].Properties.LoggingConfiguration).toBeDefined();
    const policy = ofType('AWS::S3::BucketPolicy').find(
      ([, p]) => (p.Properties.Bucket as { Ref: string }).Ref === site[0],
    )![1];
    const statements = (policy.Properties.PolicyDocument as { Statement: Array<Record<string, unknown>> })
      .Statement;
    const allows = statements.filter((s) => s.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0]).toMatchObject({
      Action: 's3:GetObject',
      Principal: { Service: 'cloudfront.amazonaws.com' },
    });
    expect(JSON.stringify(allows[0]!.Condition)).toContain(distributionId);
    expect(
      statements.some((s) => s.Effect === 'Deny' && JSON.stringify(s).includes('aws:SecureTransport')),
    ).toBe(true);
    expect(distribution).toBeDefined();
  });

  it('is read through an origin access control (signed requests), not a public endpoint', () => {
    const [oacId, oac] = only('AWS::CloudFront::OriginAccessControl');
    expect(oac.Properties.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
    const config = only('AWS::CloudFront::Distribution')[1].Properties.DistributionConfig as {
      Origins: Array<Record<string, unknown>>;
    };
    const s3Origin = config.Origins.find((o) => o.S3OriginConfig)!;
    expect(s3Origin.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [oacId, 'Id'] });
    expect(s3Origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
  });
});

describe('the distribution', () => {
  const config = () =>
    only('AWS::CloudFront::Distribution')[1].Properties.DistributionConfig as {
      DefaultCacheBehavior: Record<string, unknown>;
      CacheBehaviors: Array<Record<string, unknown>>;
      Origins: Array<Record<string, unknown>>;
      DefaultRootObject: string;
      Logging: unknown;
    };

  it('answers HTTPS only, pages and API alike, and reaches the API over HTTPS only', () => {
    const c = config();
    expect(c.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('https-only');
    expect(c.CacheBehaviors.length).toBeGreaterThan(0);
    for (const behavior of c.CacheBehaviors) expect(behavior.ViewerProtocolPolicy).toBe('https-only');
    const custom = c.Origins.filter((o) => o.CustomOriginConfig);
    expect(custom).toHaveLength(1);
    expect(custom[0]!.CustomOriginConfig).toMatchObject({
      OriginProtocolPolicy: 'https-only',
      OriginSSLProtocols: ['TLSv1.2'],
    });
    expect(c.Logging).toBeDefined();
    expect(c.DefaultRootObject).toBe('index.html');
  });

  it('sends /v1/* to this stage’s HTTP API, uncached, with every viewer header but Host', () => {
    const c = config();
    const api = c.CacheBehaviors.find((b) => b.PathPattern === '/v1/*')!;
    expect(api).toBeDefined();
    expect(api.AllowedMethods).toEqual(expect.arrayContaining(['GET', 'POST', 'OPTIONS']));
    expect(api.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad'); // Managed-CachingDisabled
    expect(api.OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac'); // AllViewerExceptHostHeader
    const origin = c.Origins.find((o) => o.Id === api.TargetOriginId)!;
    const [apiId] = only('AWS::ApiGatewayV2::Api');
    expect(JSON.stringify(origin.DomainName)).toContain(`"Ref":"${apiId}"`);
    expect(JSON.stringify(origin.DomainName)).toContain('.execute-api.');
  });

  it('sends the site’s security headers: the CSP of web/site.ts (no inline script), HSTS, no framing, no sniffing', () => {
    const [policyId, policy] = only('AWS::CloudFront::ResponseHeadersPolicy');
    expect(config().DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
    const headers = (policy.Properties.ResponseHeadersPolicyConfig as Record<string, Record<string, unknown>>)
      .SecurityHeadersConfig!;
    const csp = (headers.ContentSecurityPolicy as { ContentSecurityPolicy: string }).ContentSecurityPolicy;
    expect(csp).toBe(CONTENT_SECURITY_POLICY);
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'))!;
    expect(scriptSrc.trim()).toBe("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    expect(headers.StrictTransportSecurity).toMatchObject({
      AccessControlMaxAgeSec: 63072000,
      Override: true,
    });
    expect(headers.FrameOptions).toMatchObject({ FrameOption: 'DENY' });
    expect(headers.ContentTypeOptions).toMatchObject({ Override: true });
    expect(headers.ReferrerPolicy).toMatchObject({ ReferrerPolicy: 'no-referrer' });
  });

  it('maps a page path to its file with the rule the local server uses', () => {
    const [fnId, fn] = only('AWS::CloudFront::Function');
    expect(fn.Properties.FunctionCode).toBe(PAGE_PATH_FUNCTION);
    expect(fn.Properties.FunctionConfig).toMatchObject({ Runtime: 'cloudfront-js-2.0' });
    const association = (
      config().DefaultCacheBehavior.FunctionAssociations as Array<Record<string, unknown>>
    )[0]!;
    expect(association).toEqual({
      EventType: 'viewer-request',
      FunctionARN: { 'Fn::GetAtt': [fnId, 'FunctionARN'] },
    });
    const run = (uri: string): string =>
      runInNewContext(`${PAGE_PATH_FUNCTION}\nhandler({ request: { uri: ${JSON.stringify(uri)} } }).uri`);
    for (const path of [
      '/',
      '/verify',
      '/verify/',
      '/regulator',
      '/assets/table-abc.js',
      '/a/b.c/d',
      '/x.json',
    ]) {
      expect(run(path), path).toBe(`/${siteFile(path)}`);
    }
    expect(run('/verify')).toBe('/verify/index.html');
  });
});

describe('the upload', () => {
  it('puts the Vite build of web/ in the bucket and invalidates the distribution', () => {
    const [, upload] = only('Custom::CDKBucketDeployment');
    expect(upload.Properties.DestinationBucketName).toEqual({ Ref: siteBucket()[0] });
    expect(upload.Properties.DistributionPaths).toEqual(['/*']);
    expect(upload.Properties.Prune).toBe(true);
  });

  it('uploads pages with no inline script, no inline style and no third-party URL', () => {
    const assets = readdirSync(synthDir).filter(
      (d) => d.startsWith('asset.') && existsSync(join(synthDir, d, PAGES[1])),
    );
    expect(assets).toHaveLength(1);
    for (const page of PAGES) {
      const html = readFileSync(join(synthDir, assets[0]!, page), 'utf8');
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length, page).toBeGreaterThan(0);
      for (const [, attrs, body] of scripts) {
        expect(attrs, page).toMatch(/\bsrc="\/assets\//);
        expect(body!.trim(), page).toBe('');
      }
      expect(html, page).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=|https?:\/\/(?!www\.w3\.org)/i);
    }
  });
});

describe('CORS on the API', () => {
  it('is off unless origins are configured', () => {
    const [, api] = only('AWS::ApiGatewayV2::Api');
    expect(api.Properties.CorsConfiguration).toBeUndefined();
  });

  it('admits exactly the configured origins', () => {
    const { app, stack } = buildApp(
      { outdir: outdir(), context: { corsOrigins: 'https://casino.example, https://play.example:8443' } },
      [],
    );
    app.synth();
    const api = appTemplate(stack).findResources('AWS::ApiGatewayV2::Api');
    const cors = (Object.values(api)[0] as Resource).Properties.CorsConfiguration as Record<string, unknown>;
    expect(cors.AllowOrigins).toEqual(['https://casino.example', 'https://play.example:8443']);
    expect(cors.AllowCredentials).toBe(false);
    expect(cors.AllowHeaders).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'idempotency-key']),
    );
    expect(cors.AllowMethods).toEqual(['GET', 'POST', 'OPTIONS']);
  });

  it('refuses anything that is not an https origin', () => {
    for (const bad of [
      '*',
      'http://casino.example',
      'https://casino.example/path',
      'casino.example',
      'https://*.example',
    ]) {
      expect(() => parseCorsOrigins(bad), bad).toThrow(/corsOrigins/);
    }
    expect(parseCorsOrigins(['https://a.example', 'https://a.example'])).toEqual(['https://a.example']);
    expect(parseCorsOrigins(undefined)).toEqual([]);
  });
});

describe('a domain of its own', () => {
  const certificateArn =
    'arn:aws:acm:us-east-1:111122223333:certificate/0d1b2a3c-4e5f-8a9b-0c1d-2e3f4a5b6c7d';

  it('serves the site on it with its certificate and TLS 1.2 (2021) at least', () => {
    const { app, stack } = buildApp(
      {
        outdir: outdir(),
        context: { siteDomain: 'play.casino.example', siteCertificateArn: certificateArn },
      },
      [],
    );
    app.synth();
    const json = appTemplate(stack).toJSON();
    const distribution = Object.values(json.Resources as Record<string, Resource>).find(
      (r) => r.Type === 'AWS::CloudFront::Distribution',
    )!;
    const config = distribution.Properties.DistributionConfig as Record<string, unknown>;
    expect(config.Aliases).toEqual(['play.casino.example']);
    expect(config.ViewerCertificate).toMatchObject({
      AcmCertificateArn: certificateArn,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    expect((json.Outputs as Record<string, { Value: unknown }>).SiteUrl!.Value).toBe(
      'https://play.casino.example',
    );
  });

  it('needs both the name and a us-east-1 certificate', () => {
    expect(parseSiteDomain(undefined, undefined)).toBeUndefined();
    expect(() => parseSiteDomain('play.casino.example', undefined)).toThrow(/both or neither/);
    expect(() => parseSiteDomain(undefined, certificateArn)).toThrow(/both or neither/);
    expect(() =>
      parseSiteDomain('play.casino.example', certificateArn.replace('us-east-1', 'eu-west-1')),
    ).toThrow(/us-east-1/);
    expect(() => parseSiteDomain('not a domain', certificateArn)).toThrow(/not a domain name/);
  });
});

describe('outputs', () => {
  it('names the site URL and bucket', () => {
    const outputs = template.toJSON().Outputs as Record<string, unknown>;
    expect(outputs.SiteUrl).toBeDefined();
    expect(outputs.SiteBucketName).toBeDefined();
  });
});
