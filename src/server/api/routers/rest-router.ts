import { router } from '../trpc';
import { chargesRouter } from './charges';
import { customersRouter } from './customers';
import { eventsRouter } from './events';
import { refundsRouter } from './refunds';

// The procedures published as the documented REST paths (docs/interface.md), and only they: the
// REST entry (http/openapi-bridge.ts), its route table and the OpenAPI document load this router,
// so the console's and the operator's procedures stay out of the API's module graph.
export const restRouter = router({
  charges: chargesRouter,
  refunds: refundsRouter,
  events: eventsRouter,
  customers: customersRouter,
});
