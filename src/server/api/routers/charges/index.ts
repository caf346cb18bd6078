import { router } from '../../trpc';
import { authorizeCharge } from './authorize-charge';
import { cancelOperation } from './cancel-operation';
import { capturePayment } from './capture-payment';
import { getTransaction } from './get-transaction';

// Keys are the operationIds without the area's noun (charges.authorize is authorizeCharge).
export const chargesRouter = router({ authorize: authorizeCharge, getTransaction, cancelOperation, capture: capturePayment });
