/** Personal API tokens (#19): the routes of the profile page and the store the authenticator resolves tokens with. */
export { apiTokensPlugin } from './api-tokens-plugin';
export { API_TOKEN_PREFIX, EXPIRY_CHOICES_DAYS, findUsableToken, isApiTokenShape, tokenRoles } from '../../auth/sessions/api-tokens';
