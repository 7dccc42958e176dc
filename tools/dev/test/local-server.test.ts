/**
 * The local server routes a request as API Gateway does in a deployment: by ROUTES
 * (functions/src/routes.ts), path parameters decoded, 405 for a known path with a wrong method.
 */
import { describe, expect, it } from 'vitest';
import { matchRoute } from '../src/local-server';

describe('local server routing', () => {
  it('routes by ROUTES, decodes path parameters, and tells a wrong method from an unknown path', () => {
    expect(matchRoute('POST', '/v1/rounds/rnd_1/bets')).toMatchObject({
      route: { handler: 'place-bet' },
      pathParameters: { roundId: 'rnd_1' },
    });
    expect(matchRoute('POST', '/v1/tables/t1/players/p%3A1/leave')).toMatchObject({
      pathParameters: { tableId: 't1', playerId: 'p:1' },
    });
    expect(matchRoute('GET', '/v1/openapi.json')).toMatchObject({ route: { handler: 'get-openapi' } });
    expect(matchRoute('GET', '/v1/openapiXjson')).toBeUndefined();
    expect(matchRoute('DELETE', '/v1/rounds/rnd_1')).toBe('METHOD');
    expect(matchRoute('GET', '/v1/rounds/rnd_1/bets/extra')).toBeUndefined();
  });
});
