import { describe, expect, it } from 'vitest';
import { GET } from './route';

// The API reference's files: the two of swagger-ui-dist, its start script, nothing else.
const get = (file: string) => GET(new Request(`http://localhost/docs/assets/${file}`), { params: Promise.resolve({ file }) });

describe('GET /docs/assets/<file>', () => {
  it('serves the reference files', async () => {
    for (const file of ['init.js', 'swagger-ui.css', 'swagger-ui-bundle.js']) expect((await get(file)).status).toBe(200);
  });

  it('answers 404 for any other name, names of object properties included (they were 500s)', async () => {
    for (const file of ['constructor', '__proto__', 'toString', 'hasOwnProperty', '../package.json', 'swagger-ui.js']) {
      expect([file, (await get(file)).status]).toEqual([file, 404]);
    }
  });
});
