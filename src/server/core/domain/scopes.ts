// The scopes of a credential and of its tokens (docs/DESIGN.md 5, with get:events added by
// docs/DECISIONS.md "The events API" and the customers' three by "Card on file"). Here, with no
// dependency, for the console's pages too.
export const SCOPES = [
  'create:token',
  'post:charges',
  'get:charges',
  'delete:charges',
  'get:events',
  'post:customers',
  'get:customers',
  'delete:customers',
] as const;

export type Scope = (typeof SCOPES)[number];
