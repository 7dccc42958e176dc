import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTimeStampAuthority, QUERY_TYPE, REPLY_TYPE, type TsaFetch } from '../src/http-client';
import type { LocalTimeStampAuthority } from '../src/local';
import { timeStampRejection } from '../src/local';
import { parseTimeStampRequest, timeStampRequest } from '../src/request';
import { startTimeStampServer, type TimeStampServer } from '../src/server';
import { verifyTimeStampToken } from '../src/verify';
import { AT, digestOf, failure, localTsa } from './helpers';

const imprint = digestOf(0x5a);
const NONCE = 0x1122334455667788n;

/** A fetch that answers with these reply bytes, as a TSA's endpoint would. */
const replying =
  (
    reply: (body: Uint8Array) => Promise<Uint8Array> | Uint8Array,
    status = 200,
    type = REPLY_TYPE,
  ): TsaFetch =>
  async (_url, init) => {
    const bytes = await reply(init.body);
    return {
      status,
      headers: { get: (name: string) => (name === 'content-type' ? type : null) },
      arrayBuffer: async () => bytes.slice().buffer,
    };
  };

describe('HttpTimeStampAuthority against the local RFC 3161 server', () => {
  let tsa: LocalTimeStampAuthority;
  let server: TimeStampServer;
  const seen: { method: string; contentType: string | undefined; body: Uint8Array }[] = [];

  beforeAll(async () => {
    tsa = await localTsa('TSA A');
    server = await startTimeStampServer(tsa, { onRequest: (request) => seen.push(request) });
  });
  afterAll(() => server.close());

  it('POSTs the exact request (content-type, version 1, SHA-256, imprint, nonce, certReq) and gets a token that verifies', async () => {
    seen.length = 0;
    const client = new HttpTimeStampAuthority(server.url, { nonce: () => NONCE, timeoutMs: 5000 });
    const token = await client.stamp(imprint);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', contentType: QUERY_TYPE });
    expect(seen[0]!.body).toEqual(timeStampRequest(imprint, { nonce: NONCE, certReq: true }));
    expect(parseTimeStampRequest(seen[0]!.body)).toMatchObject({
      version: 1,
      hashAlgorithm: '2.16.840.1.101.3.4.2.1',
      imprint,
      nonce: NONCE,
      certReq: true,
    });
    const verified = await verifyTimeStampToken(token, {
      imprint,
      trusted: [tsa.certificatePem()],
      nonce: NONCE,
    });
    expect(verified.genTime).toBe(AT.toISOString());
  });

  it('sends a fresh random nonce by default', async () => {
    seen.length = 0;
    const client = new HttpTimeStampAuthority(server.url);
    await client.stamp(imprint);
    await client.stamp(imprint);
    const [first, second] = seen.map((s) => parseTimeStampRequest(s.body).nonce);
    expect(first).toBeTypeOf('bigint');
    expect(first).not.toBe(second);
  });

  it('answers what is not a POST of a query with 405 / 415, and a malformed query with an RFC 3161 rejection', async () => {
    expect((await fetch(server.url)).status).toBe(405);
    const wrongType = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(wrongType.status).toBe(415);
    const garbage = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': QUERY_TYPE },
      body: new Uint8Array([1, 2, 3]),
    });
    expect(garbage.status).toBe(200);
    expect(garbage.headers.get('content-type')).toBe(REPLY_TYPE);
    const client = new HttpTimeStampAuthority(server.url, {
      fetch: replying(async () => new Uint8Array(await garbage.arrayBuffer())),
    });
    expect((await failure(client.stamp(imprint))).message).toContain('rejection (badDataFormat)');
  });

  it('refuses a reply that echoes another nonce: NONCE_MISMATCH', async () => {
    const client = new HttpTimeStampAuthority(server.url, {
      nonce: () => NONCE,
      fetch: replying(() => tsa.respond(timeStampRequest(imprint, { nonce: NONCE + 1n }))),
    });
    expect((await failure(client.stamp(imprint))).code).toBe('NONCE_MISMATCH');
  });

  it('refuses a reply that stamps another digest: IMPRINT_MISMATCH', async () => {
    const client = new HttpTimeStampAuthority(server.url, {
      nonce: () => NONCE,
      fetch: replying(() => tsa.respond(timeStampRequest(digestOf(0x5b), { nonce: NONCE }))),
    });
    expect((await failure(client.stamp(imprint))).code).toBe('IMPRINT_MISMATCH');
  });

  it('refuses a status other than granted: TSA_REJECTED', async () => {
    const client = new HttpTimeStampAuthority(server.url, {
      fetch: replying(() => timeStampRejection('timeNotAvailable', 'clock not synchronised')),
    });
    const refused = await failure(client.stamp(imprint));
    expect(refused.code).toBe('TSA_REJECTED');
    expect(refused.message).toContain('timeNotAvailable');
  });

  it('names an HTTP error, a wrong content type, a closed port and a timeout: TSA_UNREACHABLE', async () => {
    const reply = () => tsa.respond(timeStampRequest(imprint));
    for (const fetch of [replying(reply, 503), replying(reply, 200, 'text/html')]) {
      expect((await failure(new HttpTimeStampAuthority(server.url, { fetch }).stamp(imprint))).code).toBe(
        'TSA_UNREACHABLE',
      );
    }
    const gone = await startTimeStampServer(tsa);
    await gone.close();
    expect((await failure(new HttpTimeStampAuthority(gone.url).stamp(imprint))).code).toBe('TSA_UNREACHABLE');
    // A TSA that never answers: the client gives up when its signal aborts.
    const silent: TsaFetch = (_url, init) =>
      new Promise((_resolve, reject) =>
        init.signal.addEventListener('abort', () => reject(init.signal.reason)),
      );
    const slow = await failure(
      new HttpTimeStampAuthority(server.url, { fetch: silent, timeoutMs: 20 }).stamp(imprint),
    );
    expect(slow).toMatchObject({ code: 'TSA_UNREACHABLE' });
    expect(slow.message).toContain('no reply in 20 ms');
  });
});
