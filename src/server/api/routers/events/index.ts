import { router } from '../../trpc';
import { listEvents } from './list-events';

// Keys are the operationIds without the area's noun (events.list is listEvents).
export const eventsRouter = router({ list: listEvents });
