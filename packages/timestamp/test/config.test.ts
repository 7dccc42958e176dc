import { describe, expect, it } from 'vitest';
import { timeStampConfigFromEnv } from '../src/config';
import { HttpTimeStampAuthority } from '../src/http-client';
import { localTsa } from './helpers';

describe('timeStampConfigFromEnv', () => {
  it('pairs each TSA_URLS endpoint with its TSA_CERTS pin, in order, with the timeout and window', async () => {
    const [a, b] = [await localTsa('TSA A'), await localTsa('TSA B')];
    const files: Record<string, string> = {
      '/pins/a.pem': a.certificatePem(),
      '/pins/b.pem': b.certificatePem(),
    };
    const config = timeStampConfigFromEnv(
      {
        TSA_URLS: 'https://tsa.one.example/tsr, http://tsa.two.example:8080/',
        TSA_CERTS: '/pins/a.pem,/pins/b.pem',
        TSA_TIMEOUT_MS: '2500',
        TSA_WINDOW_MS: '1500',
      },
      { readFile: (path) => files[path]! },
    );
    expect(config.windowMs).toBe(1500);
    expect(config.authorities.map((x) => [x.authority.name, x.trusted])).toEqual([
      ['https://tsa.one.example/tsr', [a.certificatePem()]],
      ['http://tsa.two.example:8080/', [b.certificatePem()]],
    ]);
    expect(config.authorities[0]!.authority).toBeInstanceOf(HttpTimeStampAuthority);
  });

  it.each([
    [{}, 'TSA_URLS is empty'],
    [{ TSA_URLS: 'https://a.example/', TSA_CERTS: '' }, 'one per URL'],
    [{ TSA_URLS: 'ftp://a.example/', TSA_CERTS: '/a.pem' }, 'not an http(s) URL'],
    [{ TSA_URLS: 'https://a.example/', TSA_CERTS: '/a.pem', TSA_TIMEOUT_MS: '5s' }, 'TSA_TIMEOUT_MS must be'],
    [{ TSA_URLS: 'https://a.example/', TSA_CERTS: '/empty.pem' }, 'no "BEGIN CERTIFICATE"'],
  ])('refuses %j at start: %s', (env, message) => {
    expect(() => timeStampConfigFromEnv(env, { readFile: () => 'not a certificate' })).toThrow(message);
  });
});
