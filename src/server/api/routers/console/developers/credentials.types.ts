import { ofMerchant } from '../console-fields';

export const credentialsInput = ofMerchant;
