import { router } from '../../trpc';
import { createCustomer } from './create-customer';
import { getCustomer } from './get-customer';
import { removeCard } from './remove-card';

// Keys are the operationIds without the area's noun (customers.create is createCustomer).
export const customersRouter = router({ create: createCustomer, get: getCustomer, removeCard });
