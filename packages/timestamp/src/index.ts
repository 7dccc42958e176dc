/**
 * RFC 3161 time-stamps: the outside witness of when a head was signed. Everything exported here runs
 * in a browser (webcrypto, fetch); the local TSA's HTTP server is `@pyb/timestamp/server` (node:http).
 */
export type { TimeSource, TimeStampAuthority } from './authority';
export { fromHex, pemOrDer, toHex, toPem } from './der';
export { type AuthorityFailure, TimeStampError, type TimeStampFailureCode } from './errors';
export { type HeadAnchorAnswer, headAnchors } from './head-anchors';
export {
  HttpTimeStampAuthority,
  type HttpTimeStampAuthorityOptions,
  QUERY_TYPE,
  REPLY_TYPE,
  randomNonce,
  type TsaFetch,
} from './http-client';
export {
  type CertificateOptions,
  grantedResponse,
  type Issuer,
  LOCAL_POLICY,
  LocalTimeStampAuthority,
  type LocalTimeStampAuthorityOptions,
  makeCertificate,
  makeKeyPair,
  timeStampRejection,
} from './local';
export { type InclusionProof, leafHash, merkleRoot, merkleTree, nodeHash, verifyInclusion } from './merkle';
export {
  parseTimeStampRequest,
  type TimeStampRequestOptions,
  timeStampRequest,
} from './request';
export { type FailureInfo, openToken, parseTimeStampResponse } from './response';
export {
  type Anchor,
  type AnchorToken,
  MerkleStamper,
  type MerkleStamperOptions,
  type PinnedAuthority,
  type RootAnchor,
  type Scheduler,
  stampWithAny,
  timerScheduler,
} from './stamper';
export {
  loadCertificates,
  type PinnedCertificates,
  type VerifiedTimeStamp,
  type VerifyTimeStampOptions,
  verifyTimeStampToken,
} from './verify';
