import NextAuth from 'next-auth';
import { consoleAuthOptions } from '@/server/auth/console-auth';

export const dynamic = 'force-dynamic';

function handler(request: Request, context: { params: Promise<{ nextauth: string[] }> }) {
  return NextAuth(request as never, context as never, consoleAuthOptions()) as Promise<Response>;
}

export { handler as GET, handler as POST };
