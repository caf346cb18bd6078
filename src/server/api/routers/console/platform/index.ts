import { router } from '../../../trpc';
import { awaitingSettlement } from './awaiting-settlement';
import { callbackKeysList } from './callback-keys';
import { createFacilitator } from './create-facilitator';
import { createMerchant } from './create-merchant';
import { facilitators } from './facilitators';
import { linkMerchant } from './link-merchant';
import { merchants } from './merchants';
import { resealProcessorSecrets } from './reseal-processor-secrets';
import { rotateCallbackKey } from './rotate-callback-key';
import { rotateVaultKey } from './rotate-vault-key';
import { settleNow } from './settle-now';
import { unlinkMerchant } from './unlink-merchant';

export const platformRouter = router({
  merchants,
  facilitators,
  awaitingSettlement,
  createMerchant,
  createFacilitator,
  linkMerchant,
  unlinkMerchant,
  settleNow,
  callbackKeys: callbackKeysList,
  rotateCallbackKey,
  resealProcessorSecrets,
  rotateVaultKey,
});
