import { expect } from 'vitest';

// The audit archive (retention.ts) and the regulator feed (feed.ts) keep records for the retention
// period in buckets made alike: what retention.test.ts and feed.test.ts both assert of them.

/**
 * Object Lock COMPLIANCE for the default period (3653 days), versioned, encrypted, no public access,
 * owner-enforced, access-logged under `logPrefix`, retained with the stack.
 */
// biome-ignore lint/suspicious/noExplicitAny: synthesized CloudFormation JSON
export function expectLockedBucket(bucket: any, logPrefix: string): void {
  expect(bucket.DeletionPolicy).toBe('Retain');
  expect(bucket.Properties).toMatchObject({
    ObjectLockEnabled: true,
    ObjectLockConfiguration: {
      ObjectLockEnabled: 'Enabled',
      Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 3653 } },
    },
    VersioningConfiguration: { Status: 'Enabled' },
    BucketEncryption: {
      ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
    },
    PublicAccessBlockConfiguration: {
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    },
    OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    LoggingConfiguration: { LogFilePrefix: logPrefix },
  });
}

/** The bucket policy's statements: plain HTTP and TLS below 1.2 refused, no principal may delete an object or a version. */
export function expectNoDeletesTlsOnly(statements: unknown[]): void {
  expect(statements).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        Effect: 'Deny',
        Action: 's3:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
      expect.objectContaining({ Effect: 'Deny', Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } } }),
      expect.objectContaining({
        Sid: 'NoDeletes',
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: ['s3:DeleteObject', 's3:DeleteObjectVersion'],
      }),
    ]),
  );
}
