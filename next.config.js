/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  serverExternalPackages: ['@electric-sql/pglite', 'pglite-prisma-adapter', '@prisma/schema-engine-wasm'],
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
