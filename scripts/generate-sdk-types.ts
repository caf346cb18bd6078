// Regenerates the SDK's types from the service's OpenAPI document (npm run sdk:generate): run it
// whenever the document changes; the drift test in packages/client says when it is due.
import { writeFileSync } from 'node:fs';
import { SDK_TYPES_FILE, sdkTypesSource, useDocumentEnvironment } from './support/sdk-types';

useDocumentEnvironment();
writeFileSync(SDK_TYPES_FILE, await sdkTypesSource());
console.log(`wrote ${SDK_TYPES_FILE}`);
