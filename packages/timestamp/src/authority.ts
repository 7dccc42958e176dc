/** The port: a time-stamp authority, local (dev, tests) or a real one over HTTP. */
export interface TimeStampAuthority {
  /** How reports and errors name it (a URL, "local"…). */
  readonly name: string;
  /** An RFC 3161 token (DER ContentInfo) over this SHA-256 digest. */
  stamp(imprint: Uint8Array): Promise<Uint8Array>;
}

/** Time is an input: the same shape as the core's Clock port. */
export interface TimeSource {
  now(): Date;
}
