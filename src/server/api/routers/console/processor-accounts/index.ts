import { router } from '../../../trpc';
import { accounts, connect, remove, renewWebhook, replace, test, update } from './processor-accounts';

// A merchant's own processor accounts (docs/processors/README.md).
export const processorAccountsRouter = router({ accounts, connect, update, replace, renewWebhook, test, remove });
