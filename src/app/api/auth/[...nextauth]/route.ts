import NextAuth from 'next-auth';
import { answerBeforeNextAuth } from '@/server/http/auth-request-guard';
import { consoleAuthOptions } from '@/server/modules/access/console-auth';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ nextauth: string[] }> };

async function handler(request: Request, context: Context) {
  const answer = await answerBeforeNextAuth(request, (await context.params).nextauth);
  if (answer) return answer;
  return NextAuth(request as never, context as never, consoleAuthOptions()) as Promise<Response>;
}

export { handler as GET, handler as POST };
