import { getSeamlessOpenapiContract } from '@pyb/contracts';
import { httpHandler } from '../src/http';
import { getSeamlessOpenapiRoute } from '../src/routes';
import { servedDocument } from '../src/served-document';

export const handler = httpHandler(getSeamlessOpenapiRoute, getSeamlessOpenapiContract, () =>
  servedDocument('get-seamless-openapi'),
);
