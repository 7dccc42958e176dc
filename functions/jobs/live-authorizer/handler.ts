import { appContext } from '../../src/context';
import { liveAuthorizer } from '../../src/live-authorizer';
import { playerActor } from '../../src/sessions';

/** Not an HTTP route: AWS IoT Core invokes it for each browser connection (infra/src/live.ts). */
export const handler = liveAuthorizer({
  account: { region: process.env.AWS_REGION ?? '', accountId: process.env.AWS_ACCOUNT_ID ?? '' },
  authenticate: (token) => playerActor(appContext(), token),
});
