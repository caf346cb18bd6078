import { router } from '../trpc';
import { adminRouter } from './admin';
import { chargesRouter } from './charges';
import { consoleRouter } from './console';
import { eventsRouter } from './events';
import { refundsRouter } from './refunds';

export const appRouter = router({
  charges: chargesRouter,
  refunds: refundsRouter,
  events: eventsRouter,
  admin: adminRouter,
  console: consoleRouter,
});

export type AppRouter = typeof appRouter;
