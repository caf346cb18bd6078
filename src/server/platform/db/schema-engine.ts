import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import { eachConnection } from './adapter';

// Prisma's native schema engine cannot be downloaded on these machines; its wasm build
// (@prisma/schema-engine-wasm, pinned) runs migrations through the app's own driver adapter.
type WasmSchemaEngine = {
  applyMigrations(input: unknown): Promise<{ appliedMigrationNames: string[] }>;
  diff(input: unknown): Promise<{ exitCode: number; stdout: string }>;
  free(): void;
};
type EngineModule = {
  __wbg_set_wasm(exports: WebAssembly.Exports): void;
  SchemaEngine: {
    new: (
      options: { datamodels: [string, string][] },
      log: (message: string) => void,
      adapter: unknown,
    ) => Promise<WasmSchemaEngine>;
  };
};

let engineModule: Promise<EngineModule> | undefined;

function loadEngineModule(): Promise<EngineModule> {
  engineModule ??= (async () => {
    const packageDir = path.join(process.cwd(), 'node_modules', '@prisma', 'schema-engine-wasm');
    const bindings = (await import(
      /* turbopackIgnore: true */ /* webpackIgnore: true */ path.join(packageDir, 'schema_engine_bg.js')
    )) as EngineModule & Record<string, unknown>;
    const wasm = readFileSync(path.join(packageDir, 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(wasm, { './schema_engine_bg.js': bindings as WebAssembly.ModuleImports });
    bindings.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bindings;
  })();
  return engineModule;
}

export async function withSchemaEngine<T>(
  factory: SqlMigrationAwareDriverAdapterFactory,
  schema: { path: string; content: string },
  use: (engine: WasmSchemaEngine) => Promise<T>,
): Promise<T> {
  const bindings = await loadEngineModule();
  const logs: string[] = [];
  // The engine does not dispose the connections it opens, and it holds PostgreSQL's migration
  // advisory lock on one of them: they are ended here, so that the lock goes with them (a pool
  // keeps its connections open: adapter.ts).
  const connected: SqlDriverAdapter[] = [];
  const tracked = eachConnection(factory, (adapter) => {
    connected.push(adapter);
    return adapter;
  });
  const engine = await bindings.SchemaEngine.new(
    { datamodels: [[schema.path, schema.content]] },
    (message) => logs.push(message),
    bindMigrationAwareSqlAdapterFactory(tracked),
  );
  try {
    return await use(engine);
  } finally {
    engine.free();
    await Promise.allSettled(connected.map((adapter) => adapter.dispose()));
  }
}
