import { refund } from './refund';
import { refundBatch } from './refund-batch';
import { refundDetail } from './refund-detail';
import { refundableTransactions } from './refundable-transactions';
import { refunds } from './refunds';

export const refundsProcedures = { refunds, refundDetail, refundableTransactions, refund, refundBatch };
