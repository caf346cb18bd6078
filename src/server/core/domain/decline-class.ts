// Every processor answer is normalized to one decline class (docs/ORCHESTRATION.md 1), which
// decides whether another attempt may help: `technical` on another processor, `soft` only where
// the merchant opts in, `sca_required` after 3-D Secure, `hard` never.
export const DECLINE_CLASSES = ['technical', 'soft', 'sca_required', 'hard'] as const;
export type DeclineClass = (typeof DECLINE_CLASSES)[number];

const CLASS_OF_CODE: Readonly<Record<string, DeclineClass>> = {
  '96': 'technical', // system malfunction
  '91': 'technical', // issuer unavailable
  '05': 'soft', // do not honour
  '51': 'soft', // insufficient funds
  '61': 'soft', // over limit
  '65': 'sca_required',
  '1A': 'sca_required',
  '54': 'hard', // expired
  N7: 'hard', // bad security code
  '14': 'hard', // invalid card
  '41': 'hard', // lost
  '43': 'hard', // stolen
  '57': 'hard', // not permitted to the cardholder
  '58': 'hard', // not permitted to the acquirer (an MIT without a valid network transaction id)
};

/** The class of a processor's decline code; a code the table does not know is `hard`, so that an answer nobody understood is never tried again elsewhere. */
export function declineClassOf(code: string): DeclineClass {
  return CLASS_OF_CODE[code] ?? 'hard';
}

export function isDeclineClass(value: string): value is DeclineClass {
  return (DECLINE_CLASSES as readonly string[]).includes(value);
}
