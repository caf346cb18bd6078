import { router } from '../../trpc';
import { getRefundsOfOperation } from './get-refunds-of-operation';
import { listRefunds } from './list-refunds';
import { requestRefunds } from './request-refunds';

// Keys are the operationIds without the area's noun (refunds.request is requestRefunds).
export const refundsRouter = router({ request: requestRefunds, list: listRefunds, getOfOperation: getRefundsOfOperation });
