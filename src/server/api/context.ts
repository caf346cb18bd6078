import type { Db } from '@/server/platform/db/client';
import type { Principal } from '@/server/modules/access/principal';
import type { ConsoleSession } from '@/server/modules/access/console-session';
import type { HeaderReader } from '@/server/platform/http/api-request';

export type ApiContext = {
  headers: HeaderReader;
  requestId: string;
  prisma: Db;
  /** Set by the integrator middleware from the Bearer token. */
  principal?: Principal;
  /** Set for console and operator calls. */
  session?: ConsoleSession;
  /** The REST body parsed as JSON but is not an object (refused as a validation error). */
  bodyIsNotObject?: boolean;
  /** The error a procedure failed with; the REST wrapper turns it into the envelope. */
  failure?: unknown;
};
