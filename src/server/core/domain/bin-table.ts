/** What a BIN says of its card: the issuer's data, apart from the brand (read from the PAN). */
export type BinInfo = {
  card_type: 'CREDIT' | 'DEBIT' | 'PREPAID';
  /** ISO 3166 alpha-2 */
  card_country: string;
  issuer: string;
};

/** Sandbox issuer data by BIN (first six digits). Real connectors get this from their processor. */
export const SANDBOX_BIN_TABLE: Readonly<Record<string, BinInfo>> = {
  '400000': { card_type: 'CREDIT', card_country: 'US', issuer: 'SANDBOX TEST BANK' },
  '421355': { card_type: 'DEBIT', card_country: 'PE', issuer: 'YAPE' },
  '455788': { card_type: 'DEBIT', card_country: 'PE', issuer: 'BANCO DE CREDITO DEL PERU' },
  '520473': { card_type: 'CREDIT', card_country: 'PE', issuer: 'INTERBANK' },
  '491914': { card_type: 'CREDIT', card_country: 'PE', issuer: 'BBVA PERU' },
  '405142': { card_type: 'DEBIT', card_country: 'PE', issuer: 'SCOTIABANK PERU' },
};

/** Issuer data of any BIN missing from the table, whatever the brand. */
export const DEFAULT_BIN_INFO: BinInfo = {
  card_type: 'CREDIT',
  card_country: 'US',
  issuer: 'SANDBOX BANK',
};
