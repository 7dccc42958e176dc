/** What the recorded fixture (fixtures/token.tsr, token.der, tsa.pem) stamps. */
export const FIXTURE = {
  /** SHA-256("pyb time-stamp fixture"), the digest stamped. */
  imprint: 'bd70023acdd712fbb49978c8d80ad5a52468f75633c37cec0f725010225379b1',
  genTime: '2026-12-02T06:00:00.125Z',
  serialNumber: '3161',
  nonce: '81985529216486895',
} as const;
