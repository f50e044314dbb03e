/**
 * The connections module as the rest of the server sees it: its routes, resolving a stored connection with its
 * secrets, the rule that keeps a check on its connection's origin, the bounded probes that health checks share
 * with Test Connection, and the delivery port through which Test Connection sends a notification connection's message.
 */
export { connectionsPlugin } from './connections-plugin';
export { connectionTypeOf, connectionUrlOf, resolveConnection, urlWithCredentials, type ResolvedConnection } from './connection-store';
export { awsSigningProblem, connectionOriginMessage, credentialUrlOf, isAwsEndpoint, leavesConnectionOrigin, originOf, TARGET_FIELDS } from './connection-origin';
export { httpProbe, MAX_RESPONSE_BYTES, type HttpProbeResponse } from './probes/bounded-http';
export { mongoProbe, mysqlProbe, postgresProbe, redisProbe } from './probes/database-probes';
export { namesOwnDatabase, OWN_DATABASE_MESSAGE, ownDatabase, refuseOwnDatabase, refuseOwnSocket } from './probes/own-database';
export {
  ALLOW_LOCAL_DATABASE_PROPERTY,
  databaseGuard,
  guardedMysqlOptions,
  guardedPostgresConfig,
  LOCAL_DATABASE_MESSAGE,
  localDatabasesAllowed,
  mysqlUrlIsPlainlyLocal,
  postgresUrlIsPlainlyLocal,
  type DatabaseGuard,
} from './probes/local-database';
export { databaseErrors } from './database-errors';
export {
  registerNotificationDelivery,
  type DeliverNotification,
  type DeliveryOptions,
  type DeliveryReceipt,
  type NotificationDeliveryPort,
  type NotificationMessage,
} from './notification-delivery';
export { connectionColumns } from './connection-store';
export { refuseOwnDatabaseUrl, validateConnectionForType } from './connection-rules';
