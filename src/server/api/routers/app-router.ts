import { router } from '../trpc';
import { cancelOperationProcedure } from './charges/cancel-operation';
import { createCharge } from './charges/create-charge';
import { getTransactionProcedure } from './charges/get-transaction';
import { createRefunds } from './refunds/create-refunds';
import { listRefundsProcedure } from './refunds/list-refunds';
import { refundsOfOperationProcedure } from './refunds/refunds-of-operation';
import { adminRouter } from './admin/admin-router';
import { consoleRouter } from './console/console-router';

export const appRouter = router({
  charges: router({ create: createCharge, get: getTransactionProcedure, cancel: cancelOperationProcedure }),
  refunds: router({ create: createRefunds, list: listRefundsProcedure, ofOperation: refundsOfOperationProcedure }),
  admin: adminRouter,
  console: consoleRouter,
});

export type AppRouter = typeof appRouter;
