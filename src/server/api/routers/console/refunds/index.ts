import { router } from '../../../trpc';
import { refund } from './refund';
import { refundBatch } from './refund-batch';
import { refundDetail } from './refund-detail';
import { refundableTransactions } from './refundable-transactions';
import { refunds } from './refunds';

export const refundsRouter = router({ refunds, refundDetail, refundableTransactions, refund, refundBatch });
