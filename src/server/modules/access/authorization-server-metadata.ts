import { SCOPES } from '@/server/core/interface/token';

// RFC 8414 authorization server metadata: what OAuth 2.0 clients (openid-client, oauth4webapi,
// Spring, MSAL...) read to find the token endpoint, the keys and the ways to authenticate.
// Served at {auth_url}/.well-known/oauth-authorization-server and at the path-inserted form
// RFC 8414 3.1 prefers, /.well-known/oauth-authorization-server{path of auth_url}.

export const METADATA_SUFFIX = '/.well-known/oauth-authorization-server';

export function authorizationServerMetadata(config: { authUrl: string; baseUrl: string; origin: string }) {
  return {
    issuer: config.authUrl,
    token_endpoint: `${config.authUrl}/token`,
    jwks_uri: `${config.authUrl}/.well-known/jwks.json`,
    grant_types_supported: ['client_credentials'],
    // Required by RFC 8414 2; this server has no authorization endpoint, so no response type.
    response_types_supported: [],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: [...SCOPES],
    service_documentation: `${config.origin}/docs`,
    // Not RFC 8414 fields: the API the tokens are for (the default `audience` and RFC 8707 `resource`).
    api_base_url: config.baseUrl,
  };
}
