import { router } from '../../trpc';
import { createCustomer } from './create-customer';
import { getCustomer } from './get-customer';
import { removeCard } from './remove-card';
import { saveCard } from './verify-card';

// Keys are the operationIds without the area's noun (customers.create is createCustomer).
export const customersRouter = router({ create: createCustomer, get: getCustomer, saveCard, removeCard });
