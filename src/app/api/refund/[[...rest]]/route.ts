import { handleRestRequest } from '@/server/api/rest/rest-handler';
import { observed } from '@/server/observability/observe-route';

export const dynamic = 'force-dynamic';
const handler = observed('refund', handleRestRequest);
export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };
