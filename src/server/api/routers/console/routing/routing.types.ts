import { ofMerchantMethod } from './routing-fields';

export const routingInput = ofMerchantMethod;
