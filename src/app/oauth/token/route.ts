import { methodNotAllowed } from '@/server/api/rest/method-not-allowed';
import { handleTokenRequest } from '@/server/api/token/token-handler';
import { observed } from '@/server/observability/observe-route';

export const dynamic = 'force-dynamic';
export const POST = observed('token', handleTokenRequest);

const notAllowed = observed('token', methodNotAllowed('POST'));
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
