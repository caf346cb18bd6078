import { readFileSync } from 'node:fs';
import createNextIntlPlugin from 'next-intl/plugin';

/** @type {import('next').NextConfig} */

// Headers of every response, shared with the API's own HTTP path (server.js).
const shared = JSON.parse(readFileSync(new URL('./src/server/platform/security/response-headers.json', import.meta.url), 'utf8'));
const list = (headers) => Object.entries(headers).map(([key, value]) => ({ key, value }));
const common = list({ ...shared.common, ...(process.env.NODE_ENV === 'production' ? shared.production : {}) });

const nextConfig = {
  reactStrictMode: true,
  // Server code unminified: `npm run profile` and error stacks name real functions (minifying
  // server code only shrinks files read once at start).
  experimental: { turbopackMinify: { server: false } },
  poweredByHeader: false,
  serverExternalPackages: ['@electric-sql/pglite', 'pglite-prisma-adapter', '@prisma/schema-engine-wasm'],
  typescript: { ignoreBuildErrors: false },
  async headers() {
    return [
      { source: '/:path*', headers: common },
      { source: '/api/:path*', headers: [{ key: 'Content-Security-Policy', value: shared.apiCsp }] },
      { source: '/docs', headers: [{ key: 'Content-Security-Policy', value: shared.docsCsp }] },
      { source: '/docs/:path*', headers: [{ key: 'Content-Security-Policy', value: shared.docsCsp }] },
    ];
  },
};

// next-intl reads the console's messages per request from src/i18n/request.ts (no locale routing).
const withNextIntl = createNextIntlPlugin('./src/i18n/request.ts');

export default withNextIntl(nextConfig);
