import type { Db } from '@/server/platform/db/client';
import { connectAccount } from '@/server/modules/processors/processor-accounts';
import type { CulqiSimulator } from '@tests/simulators/culqi/culqi-simulator';
import { culqiKeys } from '@tests/simulators/test-keys';

type Scope = Parameters<typeof connectAccount>[1];

/**
 * A Culqi account (CARD and PAGOEFECTIVO) connected for `scope` with fresh test keys, and made
 * known to the simulator with the webhook the service gave it (unless `register` is false).
 */
export async function connectCulqiAccount(
  prisma: Db,
  culqi: CulqiSimulator,
  scope: Scope,
  { name = 'Culqi', register = true }: { name?: string; register?: boolean } = {},
) {
  const keys = culqiKeys();
  const connected = await connectAccount(
    prisma,
    scope,
    undefined,
    { processor: 'culqi', name, environment: 'test', methods: ['CARD', 'PAGOEFECTIVO'], ...keys },
    'admin@test.pe',
  );
  if (register) {
    culqi.addAccount({
      ...keys,
      webhook: {
        url: connected.account.notificationUrl,
        username: connected.webhook!.username,
        password: connected.webhook!.password,
      },
    });
  }
  return { ...connected, keys };
}
