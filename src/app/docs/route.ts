// The API reference (docs/DESIGN.md 2): Swagger UI, served from this service (no outside network),
// rendering {base_url}/openapi.json.
export const dynamic = 'force-static';

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>API reference — payment orchestration</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>`;

export function GET(): Response {
  return new Response(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } });
}
