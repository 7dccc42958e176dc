/**
 * Records the token fixture (run by hand: `tsx packages/timestamp/test/make-fixture.ts`): a local
 * TSA's certificate, a reply (.tsr) and its token (.der) over a fixed digest at a fixed time. The key
 * is thrown away; fixture.test.ts checks the recorded token keeps verifying (ECDSA signatures are
 * randomised, so a token cannot be rebuilt byte for byte: it is recorded instead).
 */
import { writeFileSync } from 'node:fs';
import { toHex } from '../src/der';
import { LocalTimeStampAuthority } from '../src/local';
import { timeStampRequest } from '../src/request';
import { parseTimeStampResponse } from '../src/response';
import { FIXTURE } from './fixture-data';

const tsa = await LocalTimeStampAuthority.create({
  name: 'pyb fixture TSA',
  clock: { now: () => new Date(FIXTURE.genTime) },
  firstSerial: BigInt(FIXTURE.serialNumber),
});
const imprint = Uint8Array.from(Buffer.from(FIXTURE.imprint, 'hex'));
const reply = await tsa.respond(timeStampRequest(imprint, { nonce: BigInt(FIXTURE.nonce), certReq: true }));
const dir = new URL('./fixtures/', import.meta.url);
writeFileSync(new URL('tsa.pem', dir), tsa.certificatePem());
writeFileSync(new URL('token.tsr', dir), reply);
writeFileSync(new URL('token.der', dir), parseTimeStampResponse(reply));
console.log('recorded; reply sha256 prefix', toHex(reply).slice(0, 16));
