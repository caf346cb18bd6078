import { answered, type ApiClient } from './api.js';

// Access tokens by OAuth 2.0 client_credentials at POST {auth_url}/token: fetched on first use,
// shared by concurrent calls, renewed shortly before they expire, and dropped when the service
// says a token is no longer valid (a rotated key, a revoked credential reissued).

export type TokenSourceOptions = {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** The scopes to ask for; `create:token` is added (the service implies it too). Default: every scope of the credential. */
  scopes?: readonly string[];
  /** How the client authenticates: credentials in the body (client_secret_post, the interface's way) or HTTP Basic. */
  clientAuth: 'post' | 'basic';
  /** `audience`: {base_url}/ (optional at the service; sent so a token for another environment is refused there). */
  audience?: string;
  /** Renew this long before `expires_in` runs out (at most a tenth of the lifetime). */
  renewBeforeMs: number;
  now: () => number;
};

type Held = { value: string; renewAt: number };

/** RFC 6749 2.3.1: each part form-urlencoded before the base64. */
function basic(clientId: string, clientSecret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

export class TokenSource {
  private held: Held | undefined;
  private pending: Promise<Held> | undefined;

  constructor(
    private readonly options: TokenSourceOptions,
    private readonly api: ApiClient,
  ) {}

  /** A token valid for a while yet: the held one, or a new one (one request however many callers wait). */
  async get(): Promise<string> {
    if (this.held && this.options.now() < this.held.renewAt) return this.held.value;
    // No caller's abort signal here: the request is shared, and one caller giving up must not fail the others.
    this.pending ??= this.request().finally(() => (this.pending = undefined));
    this.held = await this.pending;
    return this.held.value;
  }

  /** Forget `token` (the service refused it), so the next get() asks for a new one. */
  invalidate(token: string): void {
    if (this.held?.value === token) this.held = undefined;
  }

  private async request(): Promise<Held> {
    const { options } = this;
    const scopes = options.scopes ? [...new Set(['create:token', ...options.scopes])].join(' ') : undefined;
    const asked = {
      action: 'authorize' as const,
      grant_type: 'client_credentials' as const,
      ...(options.audience ? { audience: options.audience } : {}),
      ...(scopes ? { scope: scopes } : {}),
    };
    const sentAt = options.now();
    // Issuing a token changes nothing a second one would undo: the transport may replay it.
    const token = answered(
      options.clientAuth === 'post'
        ? await this.api.POST('/token', {
            baseUrl: options.authUrl,
            body: { ...asked, client_id: options.clientId, client_secret: options.clientSecret },
          })
        : // client_secret_basic: the credentials in the header, the grant form-encoded as RFC 6749 4.4.2 has it.
          await this.api.POST('/token', {
            baseUrl: options.authUrl,
            body: asked,
            bodySerializer: () => new URLSearchParams(asked).toString(),
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              authorization: basic(options.clientId, options.clientSecret),
            },
          }),
    );
    // Counted from when the request left: the token cannot outlive what the service granted.
    const lifetimeMs = token.expires_in * 1000;
    return { value: token.access_token, renewAt: sentAt + lifetimeMs - Math.min(options.renewBeforeMs, lifetimeMs / 10) };
  }
}
