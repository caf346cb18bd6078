// Next calls register() once per server process. Node-only work lives in a module imported
// dynamically so that the edge bundle never sees it: NEXT_RUNTIME is read here rather than
// through src/env.ts because Next replaces it at build time in each bundle, which drops the import.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { launchService } = await import('./server/startup/startup');
  await launchService();
}
