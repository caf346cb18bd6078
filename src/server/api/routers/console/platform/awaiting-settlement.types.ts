import { ofMerchant } from '../console-fields';

export const awaitingSettlementInput = ofMerchant;
