import { mergeRouters, router } from '../trpc';
import { adminRouter } from './admin';
import { consoleRouter } from './console';
import { restRouter } from './rest-router';

// Every procedure: the REST paths' (rest-router.ts), the operator's and the console's, which
// the console calls over /api/trpc and in-process (console-caller.ts).
export const appRouter = mergeRouters(restRouter, router({ admin: adminRouter, console: consoleRouter }));

export type AppRouter = typeof appRouter;
