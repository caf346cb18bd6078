import { mergeRouters, router } from '../../trpc';
import { callbacksRouter } from './callbacks';
import { customersRouter } from './customers';
import { developersRouter } from './developers';
import { operationsRouter } from './operations';
import { platformRouter } from './platform';
import { processorAccountsRouter } from './processor-accounts';
import { processorsRouter } from './processors';
import { refundsRouter } from './refunds';
import { routingRouter } from './routing';
import { settingsRouter } from './settings';
import { webhooksRouter } from './webhooks';

// The console's procedures: every role rule is enforced by their middleware (src/server/api/trpc.ts
// and src/server/modules/access/policy.ts); pages only hide what a role cannot do. The areas' procedures sit
// at the top of console.* (console.cancel), settings, platform, routing and processors under their own name.
export const consoleRouter = mergeRouters(
  operationsRouter,
  refundsRouter,
  customersRouter,
  callbacksRouter,
  developersRouter,
  router({
    settings: settingsRouter,
    platform: platformRouter,
    routing: routingRouter,
    processors: processorsRouter,
    processorAccounts: processorAccountsRouter,
    webhooks: webhooksRouter,
  }),
);
