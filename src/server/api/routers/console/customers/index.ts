import { router } from '../../../trpc';
import { customerDetail } from './customer-detail';
import { customers } from './customers';
import { removeSavedCard } from './remove-saved-card';

// Customers and their saved cards in the console (docs/DECISIONS.md "Card on file").
export const customersRouter = router({ customers, customerDetail, removeSavedCard });
