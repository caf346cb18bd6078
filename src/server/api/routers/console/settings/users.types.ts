import { ofMerchant } from '../console-fields';

export const usersInput = ofMerchant;
