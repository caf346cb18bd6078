import { NextResponse, type NextRequest } from 'next/server';
import { getToken } from 'next-auth/jwt';

// Console pages need a signed-in user; everything else (API, payer pages, docs) passes.
// Every rule about what a user may see or do is enforced again in the tRPC procedures.
export async function proxy(request: NextRequest) {
  const token = await getToken({ req: request, secret: process.env.NEXTAUTH_SECRET });
  if (token) return NextResponse.next();
  const login = new URL('/login', request.url);
  login.searchParams.set('callbackUrl', `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.redirect(login);
}

export const config = {
  matcher: ['/', '/operations/:path*', '/refunds/:path*', '/developers/:path*', '/settings/:path*', '/platform/:path*'],
};
