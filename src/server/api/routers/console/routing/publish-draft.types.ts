import { ofMerchantMethod } from './routing-fields';

export const publishDraftInput = ofMerchantMethod;
