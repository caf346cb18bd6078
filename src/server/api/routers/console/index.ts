import { router } from '../../trpc';
import { callbacksProcedures } from './callbacks';
import { developersProcedures } from './developers';
import { operationsProcedures } from './operations';
import { platformRouter } from './platform';
import { processorAccountsRouter } from './processor-accounts';
import { processorsRouter } from './processors';
import { refundsProcedures } from './refunds';
import { routingRouter } from './routing';
import { settingsRouter } from './settings';
import { webhooksRouter } from './webhooks';

// The console's procedures: every role rule is enforced by their middleware (src/server/api/trpc.ts
// and src/server/modules/access/policy.ts); pages only hide what a role cannot do. The areas' procedures sit
// at the top of console.* (console.cancel), settings, platform, routing and processors under their own name.
export const consoleRouter = router({
  ...operationsProcedures,
  ...refundsProcedures,
  ...callbacksProcedures,
  ...developersProcedures,
  settings: settingsRouter,
  platform: platformRouter,
  routing: routingRouter,
  processors: processorsRouter,
  processorAccounts: processorAccountsRouter,
  webhooks: webhooksRouter,
});
