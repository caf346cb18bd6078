/** @type {import('next').NextConfig} */

// Headers of every response; pages get their nonce Content-Security-Policy from src/proxy.ts.
const common = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'no-referrer' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=()' },
  ...(process.env.NODE_ENV === 'production'
    ? [{ key: 'Strict-Transport-Security', value: 'max-age=63072000; includeSubDomains' }]
    : []),
];

// JSON answers load nothing; the API reference (Swagger UI) loads its own files from here.
const API_CSP = "default-src 'none'; frame-ancestors 'none'";
const DOCS_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

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
      { source: '/api/:path*', headers: [{ key: 'Content-Security-Policy', value: API_CSP }] },
      { source: '/oauth/:path*', headers: [{ key: 'Content-Security-Policy', value: API_CSP }] },
      { source: '/docs', headers: [{ key: 'Content-Security-Policy', value: DOCS_CSP }] },
      { source: '/docs/:path*', headers: [{ key: 'Content-Security-Policy', value: DOCS_CSP }] },
    ];
  },
};

export default nextConfig;
