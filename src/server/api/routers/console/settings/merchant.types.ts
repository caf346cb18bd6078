import { ofMerchant } from '../console-fields';

export const merchantInput = ofMerchant;
