import { cookies } from 'next/headers';
import { consoleSessionOfRequest } from '@/server/modules/access/request-session';
import { db } from '@/server/platform/db/client';
import { refundsExport } from '@/server/modules/console/refunds-export';
import { LANG_COOKIE, parseLang } from '../../../console-ui/i18n';

export const dynamic = 'force-dynamic';

// The "Export CSV" link of the refunds page: the same filters as its address.
export async function GET(request: Request): Promise<Response> {
  const prisma = await db();
  return refundsExport({
    prisma,
    session: await consoleSessionOfRequest(request, prisma),
    params: Object.fromEntries(new URL(request.url).searchParams),
    lang: parseLang((await cookies()).get(LANG_COOKIE)?.value),
  });
}
