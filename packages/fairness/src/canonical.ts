import canonicalize from 'canonicalize';

/**
 * RFC 8785 (JCS) serialisation. Every hash and signature in the scheme is taken over these bytes, so
 * a value that JSON cannot represent (undefined, a function, a bigint) is refused rather than
 * silently dropped.
 */
export function canonicalJson(value: unknown): string {
  const json = canonicalize(value);
  if (json === undefined) throw new TypeError('value has no canonical JSON form');
  return json;
}
