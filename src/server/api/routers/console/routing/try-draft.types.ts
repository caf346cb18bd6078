import { ofMerchantMethod } from './routing-fields';

export const tryDraftInput = ofMerchantMethod;
