import { getOpenapiContract } from '@pyb/contracts';
import { httpHandler } from '../src/http';
import { getOpenapiRoute } from '../src/routes';
import { servedDocument } from '../src/served-document';

export const handler = httpHandler(getOpenapiRoute, getOpenapiContract, () => servedDocument('get-openapi'));
