import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const dynamic = 'force-dynamic';

// Swagger UI's own files, from the installed package, and the few lines that start it.
// A Map, not an object: `constructor` or `__proto__` must not name a file (they were 500s).
const PACKAGE_FILES = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
]);

const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  tryItOutEnabled: false,
});`;

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await params;
  if (file === 'init.js') return new Response(INIT, { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
  const type = PACKAGE_FILES.get(file);
  if (!type) return new Response('not found', { status: 404 });
  const body = await readFile(path.join(process.cwd(), 'node_modules', 'swagger-ui-dist', file));
  return new Response(body, { headers: { 'content-type': type, 'cache-control': 'public, max-age=86400' } });
}
