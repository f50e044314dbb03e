import * as client from 'openid-client';
import type { OidcConfig } from '../../platform/config';

const DISCOVERY_TIMEOUT_SECONDS = 10;
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * openid-client refuses plain http, rightly; a provider on this machine's loopback (a development provider, the test
 * suite's) cannot be reached by anyone else, so only there is http allowed.
 */
function loopbackHttp(issuer: URL): boolean {
  return issuer.protocol === 'http:' && LOOPBACK_HOSTS.has(issuer.hostname);
}

/** What the callback learned: the validated ID token's claims merged with the userinfo answer. */
export interface SignInResult {
  issuer: string;
  claims: Record<string, unknown>;
}

export interface AuthorizationRequest {
  url: string;
  state: string;
  nonce: string;
  verifier: string;
}

export interface OidcClient {
  /** The provider's authorization URL for a new sign-in, with fresh PKCE, state and nonce. */
  authorizationRequest(redirectUri: string, options: { signUp: boolean }): Promise<AuthorizationRequest>;
  /**
   * Exchanges the code of the callback URL and validates what comes back (state, issuer, ID token signature,
   * audience, nonce, PKCE); throws on any mismatch. The tokens themselves stay inside this function.
   */
  completeSignIn(callbackUrl: URL, expected: { state: string; nonce: string; verifier: string }): Promise<SignInResult>;
}

/**
 * The provider's metadata is fetched on first use, not at start, so a provider that is down does not keep the console
 * from starting; a failed discovery is forgotten, so the next sign-in tries again.
 */
export function createOidcClient(config: OidcConfig): OidcClient {
  let discovered: Promise<client.Configuration> | null = null;
  const issuer = new URL(config.issuer);

  async function discover(): Promise<client.Configuration> {
    const configuration = await client.discovery(issuer, config.clientId, undefined, undefined, {
      timeout: DISCOVERY_TIMEOUT_SECONDS,
      execute: loopbackHttp(issuer) ? [client.allowInsecureRequests] : [],
    });
    // client_secret_basic is what providers register by default; post only when the provider offers nothing else.
    const methods = configuration.serverMetadata().token_endpoint_auth_methods_supported;
    const postOnly = methods !== undefined && !methods.includes('client_secret_basic') && methods.includes('client_secret_post');
    const authentication = postOnly ? client.ClientSecretPost(config.clientSecret) : client.ClientSecretBasic(config.clientSecret);
    const ready = new client.Configuration(configuration.serverMetadata(), config.clientId, undefined, authentication);
    if (loopbackHttp(issuer)) client.allowInsecureRequests(ready);
    ready.timeout = DISCOVERY_TIMEOUT_SECONDS;
    return ready;
  }

  function configuration(): Promise<client.Configuration> {
    if (discovered === null) {
      const pending = discover();
      discovered = pending;
      pending.catch(() => {
        if (discovered === pending) discovered = null;
      });
    }
    return discovered;
  }

  function scopes(): string {
    const requested = new Set(config.scopes.split(/\s+/).filter((scope) => scope !== ''));
    requested.add('openid');
    requested.add('email');
    return [...requested].join(' ');
  }

  return {
    async authorizationRequest(redirectUri, options) {
      const ready = await configuration();
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const parameters: Record<string, string> = {
        redirect_uri: redirectUri,
        scope: scopes(),
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      };
      // OpenID Connect's prompt=create asks for the sign-up page; a provider that does not list it shows its sign-in,
      // which links to sign-up on every provider we know of.
      const prompts = ready.serverMetadata().prompt_values_supported;
      if (options.signUp && Array.isArray(prompts) && prompts.includes('create')) parameters.prompt = 'create';
      return { url: client.buildAuthorizationUrl(ready, parameters).href, state, nonce, verifier };
    },

    async completeSignIn(callbackUrl, expected) {
      const ready = await configuration();
      const tokens = await client.authorizationCodeGrant(ready, callbackUrl, {
        pkceCodeVerifier: expected.verifier,
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (idClaims === undefined) throw new Error('the provider answered without an ID token');
      let claims: Record<string, unknown> = { ...idClaims };
      // Providers differ in what they put in the ID token; roles and organizations are often only in userinfo.
      if (ready.serverMetadata().userinfo_endpoint !== undefined) {
        const userinfo = await client.fetchUserInfo(ready, tokens.access_token, idClaims.sub);
        claims = { ...claims, ...userinfo, sub: idClaims.sub };
      }
      return { issuer: idClaims.iss, claims };
    },
  };
}
