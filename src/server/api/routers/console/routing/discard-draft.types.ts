import { ofMerchantMethod } from './routing-fields';

export const discardDraftInput = ofMerchantMethod;
