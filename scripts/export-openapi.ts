// Writes the OpenAPI document the service serves at {base_url}/openapi.json to a file.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openApiDocument } from '../src/server/api/openapi/document';

const target = process.argv[2] ?? 'openapi.json';
mkdirSync(path.dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log(`wrote ${target}`);
