// Operator CLI: npm run cli -- <command> [--option value ...]. As a platform admin it calls the
// console's procedures (console.platform.*, console.settings.*) and, for what only an operator
// does, admin.*: through the running service when one owns the embedded database (PGlite allows
// one process per directory), and in-process otherwise (service stopped, or PostgreSQL). It says
// on stderr which database it reached, and a command that expects a database refuses to create
// a new embedded one (scripts/support/cli-database.ts).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createTRPCClient, localLink } from '@trpc/client';
import { env } from '../src/env';
import type { AppRouter } from '../src/server/api/routers/app-router';
import { operatorTrpcClient } from './support/api-client';
import { chooseDatabase, databaseNotice, databaseRefusal, runningService } from './support/cli-database';

const COMMANDS: Record<string, { help: string; options: string[] }> = {
  'create-merchant': { help: '--code C --name N [--facilitator F]', options: ['code', 'name', 'facilitator'] },
  'create-facilitator': { help: '--code F --name N', options: ['code', 'name'] },
  'update-merchant': {
    help: '--code C [--name N] [--methods "CARD YAPE ..."] [--expiry-minutes METHOD=MINUTES|default ...] [--expiry-seconds METHOD=SECONDS|default ...]   name, enabled methods, pending expiries (merged; default clears one; seconds go below the console\'s whole minutes)',
    options: ['code', 'name', 'methods', 'expiry-minutes', 'expiry-seconds'],
  },
  'link-merchant': { help: '--facilitator F --merchant C', options: ['facilitator', 'merchant'] },
  'issue-credential': {
    help: '(--merchant C | --facilitator F) [--scopes "create:token post:charges ..."] [--label L] [--token-ttl SECONDS] [--rate-limit PER_SECOND]',
    options: ['merchant', 'facilitator', 'scopes', 'label', 'token-ttl', 'rate-limit'],
  },
  'list-credentials': { help: '[--merchant C]', options: ['merchant'] },
  'revoke-credential': { help: '--client-id ID', options: ['client-id'] },
  'create-user': {
    help: '--email E --password P --role PLATFORM_ADMIN|SUPPORT|MERCHANT_ADMIN|MERCHANT_VIEWER [--merchant C] [--name N]',
    options: ['email', 'password', 'role', 'merchant', 'name'],
  },
  'settle-now': { help: '[--merchant C]   settlement cut-off now: AUTORIZADO -> LIQUIDADO', options: ['merchant'] },
  inspect: { help: '--merchant C --operation N   every stored row of one operation', options: ['merchant', 'operation'] },
  'resend-event': { help: '--event-id ID   deliver a callback event again now', options: ['event-id'] },
  'webhook-endpoints': {
    help: "--merchant C   the merchant's webhook endpoints, their state and pending deliveries",
    options: ['merchant'],
  },
  'add-webhook-endpoint': {
    help: '--merchant C --url URL [--events "transaction.authorized refund.resolved ..." | --events "*"] [--description D]   events of operations without a callback_url go there (every event by default)',
    options: ['merchant', 'url', 'events', 'description'],
  },
  'update-webhook-endpoint': {
    help: '--id ID [--url URL] [--events "..."] [--description D] [--enabled true|false]   enabling one clears its disablement',
    options: ['id', 'url', 'events', 'description', 'enabled'],
  },
  'remove-webhook-endpoint': { help: '--id ID', options: ['id'] },
  'test-webhook-endpoint': { help: '--id ID   send it a test delivery now (not an event)', options: ['id'] },
  'rotate-webhook-secret': {
    help: '--id ID [--overlap-hours 0-168 (24)]   a new signing secret, shown once; the current one signs beside it for the overlap',
    options: ['id', 'overlap-hours'],
  },
  'callback-keys': { help: '   the keys callbacks may be signed with now (active, and any in its overlap)', options: [] },
  'rotate-callback-key': {
    help: '[--overlap-days 0-90]   a new callback signing key now; the old one stays published for the overlap (7 days)',
    options: ['overlap-days'],
  },
  connectors: { help: "   every connector: methods, mode, enabled, this process's breaker", options: [] },
  'connector-mode': {
    help: '--connector ID (--mode normal|outage|slow|flaky|declining | --enabled true|false)   shared by every instance',
    options: ['connector', 'mode', 'enabled'],
  },
  routing: {
    help: '--merchant C --method M   the published rule, the draft, the platform default and the retry policy',
    options: ['merchant', 'method'],
  },
  'routing-draft': {
    help: '--merchant C --method M --routes JSON|@FILE   save the draft (validated; each problem named by its field)',
    options: ['merchant', 'method', 'routes'],
  },
  'routing-try': {
    help: '--merchant C --method M   how the draft would route the latest 1,000 payments',
    options: ['merchant', 'method'],
  },
  'routing-publish': { help: '--merchant C --method M   publish the draft', options: ['merchant', 'method'] },
  'routing-discard': { help: '--merchant C --method M   drop the draft', options: ['merchant', 'method'] },
  'retry-policy': {
    help: '--merchant C --method M --max-attempts 1-3 --budget-ms MS --retry-soft true|false',
    options: ['merchant', 'method', 'max-attempts', 'budget-ms', 'retry-soft'],
  },
  'three-ds': {
    help: '--merchant C --mode NEVER|ALWAYS|OVER|WHEN_REQUIRED [--over-amount CENTS]   when card payments authenticate',
    options: ['merchant', 'mode', 'over-amount'],
  },
  'capture-mode': {
    help: '--merchant C --method CARD --mode MANUAL|AUTOMATIC [--window-days 1-29]   capture later, and the window before a void',
    options: ['merchant', 'method', 'mode', 'window-days'],
  },
  'processor-accounts': { help: '--merchant C   its processor accounts (never a secret)', options: ['merchant'] },
  'connect-processor-account': {
    help: '--merchant C --processor culqi|mercadopago|niubiz|izipay --name N --environment test|live --methods "CARD YAPE ..." --public-key K (Niubiz: merchant code; Izipay: shop id) --secret-key @FILE [--webhook-secret @FILE (Mercado Pago)] [--api-user U --tax-id RUC (Niubiz)]   sealed at once; secrets from a file keep them out of the shell history',
    options: [
      'merchant',
      'processor',
      'name',
      'environment',
      'methods',
      'public-key',
      'secret-key',
      'webhook-secret',
      'api-user',
      'tax-id',
    ],
  },
  'test-processor-account': { help: '--id ID   ask the processor whether it takes the keys', options: ['id'] },
  'reseal-processor-secrets': {
    help: '   seal every processor account again under the first key of PROCESSOR_SECRET_KEYS',
    options: [],
  },
  'rotate-vault-key': {
    help: '   a new key-encryption key for saved cards (the worker re-wraps them); with VAULT_KEYS, the setting to deploy',
    options: [],
  },
  'secret-scan': {
    help: '[--pan V ...] [--secret V ...] [--password V ...] [--needle V ...]   columns holding the values, card data, secrets or passwords',
    options: ['pan', 'secret', 'password', 'needle'],
  },
};

function usage(): string {
  return [
    'usage: npm run cli -- <command> [options]',
    '',
    ...Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(19)} ${command.help}`),
  ].join('\n');
}

type Caller = ReturnType<typeof createTRPCClient<AppRouter>>;

async function withOperator<T>(command: string, use: (operator: Caller) => Promise<T>): Promise<T> {
  const config = env();
  const choice = chooseDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir: config.PGLITE_DIR }, () =>
    runningService(config.SERVICE_FILE),
  );
  const refusal = databaseRefusal(command, choice);
  if (refusal) throw new Error(refusal);
  console.error(databaseNotice(choice));
  if (choice.via === 'service') {
    const { service } = choice;
    return use(operatorTrpcClient(service.url, service.operatorToken));
  }
  const { openedDatabase, closeDatabase } = await import('../src/server/platform/db/client');
  const { appRouter } = await import('../src/server/api/routers/app-router');
  const { prisma } = await openedDatabase();
  // The same client as over HTTP (`.mutate`, `.query`), its calls run in this process.
  const client = createTRPCClient<AppRouter>({
    links: [
      localLink({
        router: appRouter,
        createContext: () =>
          Promise.resolve({
            headers: new Headers(),
            requestId: 'cli',
            prisma,
            session: { userId: null, email: 'operator@cli', role: 'PLATFORM_ADMIN' as const, merchantId: null },
          }),
      }),
    ],
  });
  try {
    return await use(client);
  } finally {
    await closeDatabase();
  }
}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new Error(`--${name} is required`);
  return value;
}

/** A value given as itself or as @FILE (its first line): a secret in a file stays out of the shell history. */
function valueOrFile(values: Record<string, unknown>, name: string): string {
  const given = required(values, name);
  return given.startsWith('@') ? (readFileSync(given.slice(1), 'utf8').split(/\r?\n/)[0] ?? '').trim() : given;
}

function booleanOption(value: string, name: string): boolean {
  if (value === 'true' || value === 'false') return value === 'true';
  throw new Error(`--${name} must be true or false`);
}

async function run(command: string, values: Record<string, string | string[] | undefined>): Promise<unknown> {
  const optional = (name: string) => (typeof values[name] === 'string' ? values[name] : undefined);
  return withOperator(command, async (operator) => {
    const {
      admin,
      console: { platform, settings, processors, processorAccounts, routing, webhooks },
    } = operator;
    const ofMethod = () => ({ merchantCode: required(values, 'merchant'), method: required(values, 'method') as 'CARD' });
    switch (command) {
      case 'create-merchant':
        return platform.createMerchant.mutate({
          code: required(values, 'code'),
          name: required(values, 'name'),
          facilitatorCode: optional('facilitator'),
        });
      case 'create-facilitator':
        return platform.createFacilitator.mutate({ code: required(values, 'code'), name: required(values, 'name') });
      case 'update-merchant': {
        // The console's three settings forms, each only when its options are given.
        const merchantCode = required(values, 'code');
        const name = optional('name');
        const methods = optional('methods');
        const expiries = (option: string) => {
          const given = values[option];
          const pairs = (Array.isArray(given) ? given : given ? [given] : []).map((pair) => pair.split('='));
          return Object.fromEntries(
            pairs.map(([method, value]) => [method, value === 'default' ? null : Number(value)]),
          ) as Record<'QR', number | null>;
        };
        const expiryMinutes = expiries('expiry-minutes');
        const expirySeconds = expiries('expiry-seconds');
        if (name !== undefined) {
          const { supportEmail } = await settings.merchant.query({ merchantCode });
          await settings.updateProfile.mutate({ merchantCode, name, supportEmail });
        }
        if (methods !== undefined) {
          const enabledMethods = methods.split(' ').filter(Boolean) as ('CARD' | 'YAPE')[];
          await settings.updateMethods.mutate({ merchantCode, enabledMethods });
        }
        if (Object.keys(expiryMinutes).length) await settings.updateExpiries.mutate({ merchantCode, expiryMinutes });
        if (Object.keys(expirySeconds).length) await admin.setExpirySeconds.mutate({ code: merchantCode, expirySeconds });
        return settings.merchant.query({ merchantCode });
      }
      case 'link-merchant':
        return platform.linkMerchant.mutate({
          facilitatorCode: required(values, 'facilitator'),
          merchantCode: required(values, 'merchant'),
        });
      case 'issue-credential': {
        const merchant = optional('merchant');
        const facilitator = optional('facilitator');
        if (Boolean(merchant) === Boolean(facilitator)) throw new Error('give exactly one of --merchant or --facilitator');
        const scopes = optional('scopes')?.split(' ').filter(Boolean) as
          ('create:token' | 'post:charges' | 'get:charges' | 'delete:charges')[] | undefined;
        const issued = await admin.issueCredential.mutate({
          owner: merchant ? { merchantCode: merchant } : { facilitatorCode: facilitator! },
          scopes,
          label: optional('label'),
          tokenTtlSeconds: optional('token-ttl') ? Number(optional('token-ttl')) : undefined,
          rateLimitPerSecond: optional('rate-limit') ? Number(optional('rate-limit')) : undefined,
        });
        return { ...issued, note: 'the client_secret is shown this once: store it now' };
      }
      case 'list-credentials':
        return admin.listCredentials.query({ merchantCode: optional('merchant') });
      case 'revoke-credential':
        return admin.revokeCredential.mutate({ clientId: required(values, 'client-id') });
      case 'create-user':
        return admin.createUser.mutate({
          email: required(values, 'email'),
          password: required(values, 'password'),
          role: required(values, 'role') as 'PLATFORM_ADMIN',
          merchantCode: optional('merchant'),
          name: optional('name'),
        });
      case 'settle-now':
        return platform.settleNow.mutate({ merchantCode: optional('merchant') });
      case 'inspect':
        return admin.inspectOperation.query({
          merchantCode: required(values, 'merchant'),
          merchantOperationNumber: required(values, 'operation'),
        });
      case 'resend-event':
        return admin.resendEvent.mutate({ eventId: required(values, 'event-id') });
      case 'webhook-endpoints':
        return webhooks.endpoints.query({ merchantCode: required(values, 'merchant') });
      case 'add-webhook-endpoint':
        return webhooks.create.mutate({
          merchantCode: required(values, 'merchant'),
          url: required(values, 'url'),
          eventTypes: (optional('events') ?? '*').split(/\s+/).filter(Boolean),
          description: optional('description') ?? '',
        });
      case 'update-webhook-endpoint': {
        const enabled = optional('enabled');
        const events = optional('events');
        return webhooks.update.mutate({
          id: required(values, 'id'),
          url: optional('url'),
          eventTypes: events === undefined ? undefined : events.split(/\s+/).filter(Boolean),
          description: optional('description'),
          enabled: enabled === undefined ? undefined : booleanOption(enabled, 'enabled'),
        });
      }
      case 'remove-webhook-endpoint':
        return webhooks.remove.mutate({ id: required(values, 'id') });
      case 'test-webhook-endpoint':
        return webhooks.sendTest.mutate({ id: required(values, 'id') });
      case 'rotate-webhook-secret':
        return webhooks.rotateSecret.mutate({
          id: required(values, 'id'),
          overlapHours: Number(optional('overlap-hours') ?? 24),
        });
      case 'callback-keys':
        return platform.callbackKeys.query();
      case 'rotate-callback-key':
        return platform.rotateCallbackKey.mutate({
          overlapDays: optional('overlap-days') === undefined ? undefined : Number(optional('overlap-days')),
        });
      case 'connectors':
        return processors.connectors.query();
      case 'connector-mode': {
        const connector = required(values, 'connector');
        const mode = optional('mode');
        const enabled = optional('enabled');
        if ((mode === undefined) === (enabled === undefined)) throw new Error('give exactly one of --mode or --enabled');
        if (mode !== undefined) return processors.setMode.mutate({ connector, mode: mode as 'normal' });
        return processors.setEnabled.mutate({ connector, enabled: booleanOption(enabled!, 'enabled') });
      }
      case 'routing':
        return routing.routing.query(ofMethod());
      case 'routing-draft': {
        const given = required(values, 'routes');
        const text = given.startsWith('@') ? readFileSync(given.slice(1), 'utf8') : given;
        let routes: unknown;
        try {
          routes = JSON.parse(text);
        } catch {
          throw new Error('--routes must be JSON (or @FILE holding JSON)');
        }
        return routing.saveDraft.mutate({ ...ofMethod(), routes });
      }
      case 'routing-try':
        return routing.tryDraft.query(ofMethod());
      case 'routing-publish':
        return routing.publishDraft.mutate(ofMethod());
      case 'routing-discard':
        return routing.discardDraft.mutate(ofMethod());
      case 'retry-policy':
        return routing.updatePolicy.mutate({
          ...ofMethod(),
          maxAttempts: Number(required(values, 'max-attempts')),
          budgetMs: Number(required(values, 'budget-ms')),
          retrySoftDeclines: booleanOption(required(values, 'retry-soft'), 'retry-soft'),
        });
      case 'three-ds':
        return routing.updateThreeDs.mutate({
          merchantCode: required(values, 'merchant'),
          setting: { mode: required(values, 'mode') as 'NEVER', overAmount: optional('over-amount') },
        });
      case 'capture-mode': {
        const windowDays = optional('window-days');
        return routing.updateCapture.mutate({
          ...ofMethod(),
          mode: required(values, 'mode') as 'MANUAL',
          ...(windowDays === undefined ? {} : { windowDays: Number(windowDays) }),
        });
      }
      case 'processor-accounts':
        return processorAccounts.accounts.query({ merchantCode: required(values, 'merchant') });
      case 'connect-processor-account': {
        const processor = required(values, 'processor');
        const common = {
          merchantCode: required(values, 'merchant'),
          name: required(values, 'name'),
          environment: required(values, 'environment') as 'test',
          methods: required(values, 'methods')
            .split(/[\s,]+/)
            .filter(Boolean) as 'CARD'[],
          publicKey: required(values, 'public-key'),
          secretKey: valueOrFile(values, 'secret-key'),
        };
        switch (processor) {
          case 'culqi':
          case 'izipay':
            return processorAccounts.connect.mutate({ processor, ...common });
          case 'mercadopago':
            return processorAccounts.connect.mutate({
              processor,
              ...common,
              webhookSecret: valueOrFile(values, 'webhook-secret'),
            });
          case 'niubiz':
            return processorAccounts.connect.mutate({
              processor,
              ...common,
              apiUser: required(values, 'api-user'),
              ...(optional('tax-id') ? { taxId: optional('tax-id') } : {}),
            });
          default:
            throw new Error('--processor must be culqi, mercadopago, niubiz or izipay');
        }
      }
      case 'test-processor-account':
        return processorAccounts.test.mutate({ id: required(values, 'id') });
      case 'reseal-processor-secrets':
        return platform.resealProcessorSecrets.mutate();
      case 'rotate-vault-key':
        return platform.rotateVaultKey.mutate();
      case 'secret-scan': {
        const list = (option: string) => {
          const given = values[option];
          return Array.isArray(given) ? given : given ? [given] : [];
        };
        return admin.secretScan.query({
          PAN: list('pan'),
          CLIENT_SECRET: list('secret'),
          PASSWORD: list('password'),
          TEXT: list('needle'),
        });
      }
      default:
        throw new Error(`unknown command ${command}\n\n${usage()}`);
    }
  });
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (!command || command === '--help' || command === 'help' || rest.includes('--help')) {
    console.log(usage());
    return;
  }
  const spec = COMMANDS[command];
  if (!spec) throw new Error(`unknown command ${command}\n\n${usage()}`);
  const { values } = parseArgs({
    args: rest,
    options: Object.fromEntries(
      spec.options.map((name) => [
        name,
        { type: 'string' as const, multiple: command === 'secret-scan' || name.startsWith('expiry-') },
      ]),
    ),
    strict: true,
  });
  const result = await run(command, values);
  console.log(JSON.stringify(result, null, 2));
}

main().catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  // A refused field says which and why, as the console shows it beside the field.
  const data = (error as { data?: { errors?: { field: string; message: string }[] } }).data;
  for (const each of data?.errors ?? []) console.error(`  ${each.field}: ${each.message}`);
  process.exit(1);
});
