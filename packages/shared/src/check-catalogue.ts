import type { CheckType } from './check-specs';

/**
 * What this server does with each field of a Mission Control Canary (issue #32, ADR 0069). Written from the fields
 * canary-checker's published Canary schema lists per check type, plus the few this server adds. Every field is one of:
 * - `runs`: the server honours it (the checker, the scheduler or the CEL evaluation reads it);
 * - `inert`: metadata with no effect on whether a check passes; accepted, stored and shown;
 * - `refused`: not run here; a save that holds it is refused with a coded 400 naming `<type>[<index>].<field>`, and
 *   `note` says what this server runs instead.
 * A field named in no table is refused too: nothing is saved and then ignored.
 *
 * Paths: `a.b` is key `b` inside the object `a`; `a[]` alone is `a` written as a list; `a[].b` is key `b` in any entry of
 * the list `a`.
 */
export type FieldVerdict = 'runs' | 'inert' | 'refused';

export type FieldRule =
  | {
      verdict: 'runs' | 'inert';
      note: string;
      /** A value the server accepts, for tests and the docs. */ example: unknown;
      /** Fields the example needs beside it (digest needs username and password), placed with it in tests. */
      needs?: Readonly<Record<string, unknown>>;
    }
  | { verdict: 'refused'; note: string };

export type FieldRules = Readonly<Record<string, FieldRule>>;

const runs = (note: string, example: unknown, needs?: Readonly<Record<string, unknown>>): FieldRule =>
  needs === undefined ? { verdict: 'runs', note, example } : { verdict: 'runs', note, example, needs };
const inert = (note: string, example: unknown, needs?: Readonly<Record<string, unknown>>): FieldRule =>
  needs === undefined ? { verdict: 'inert', note, example } : { verdict: 'inert', note, example, needs };
const refused = (note: string): FieldRule => ({ verdict: 'refused', note });

const SCRIPT_REFERENCE = 'secret and ConfigMap references are not handed to scripts (a script may send a value anywhere); give the value (stored sealed)';
/** How `valueFrom` reads here (ADR 0075), for the notes of the fields that take it. */
const VALUE_FROM = "valueFrom {secretKeyRef or configMapKeyRef: {name, key}} (a secret or plain property of the stored connection of that name in the canary's namespace, sent only to that connection's origin)";

/** The `valueFrom` kinds of Kubernetes' EnvVarSource this server has no source for, refused by name where valueFrom runs. */
function unresolvedReferences(path: string): FieldRules {
  return {
    [`${path}.valueFrom.serviceAccount`]: refused('Service account tokens are not read: this server runs outside Kubernetes; store the token in a connection and name it with secretKeyRef'),
    [`${path}.valueFrom.helmRef`]: refused('Helm release values are not read; store the value in a connection and name it with secretKeyRef'),
  };
}
const NO_JSONPATH = 'JSONPath is not run here; write the expression in CEL as expr';

/**
 * Fields that run in a canary reporting a result per check but not beside `resultMode: junit`, where the canary has one
 * check row for the combined report: each needs a check row of its own. A save holding one with junit is refused
 * (OD_CHECK_FIELD_NOT_RUN) naming `<type>[<index>].<field>`, rather than the field being dropped.
 */
export const JUNIT_MODE_REFUSED: ReadonlyArray<{ field: string; types: 'every' | readonly CheckType[]; note: string }> = [
  {
    field: 'relationships',
    types: 'every',
    note: 'relationships link a check row to components and catalog items, and with resultMode junit the canary has one row, the combined report; remove relationships or resultMode',
  },
  {
    field: 'artifacts',
    types: ['exec'],
    note: 'artifacts are kept per check row (the newest run of each), and with resultMode junit the canary has one row, the combined report; remove artifacts or resultMode',
  },
];

const JUNIT_MODE_REFUSED_TEXT = JUNIT_MODE_REFUSED.map(({ field, types }) => (types === 'every' ? `${field} (any check)` : `${types.join(', ')} ${field}`)).join(' and ');

/** The canary-level keys of a Canary's spec (beside the check lists). */
export const CANARY_FIELD_RULES: FieldRules = {
  schedule: runs('When the checks run: @every 30s, @hourly or a 5- or 6-field cron; an invalid one is refused at save', '@every 5m'),
  interval: runs('Seconds between runs when no schedule is set', 60),
  owner: inert('Shown with the canary', 'platform-team'),
  severity: inert('Shown with the canary', 'critical'),
  icon: inert('Shown with the canary', 'http'),
  labels: inert('Shown with the canary (the canary row has its own labels, which its checks inherit)', { team: 'platform' }),
  description: inert('Shown with the canary', 'Probes of the public site'),
  replicas: refused('Pausing a canary with replicas: 0 is not run here; every canary runs on its schedule. Delete the canary to stop it'),
  env: inert(
    'Stored, values with secret names sealed; no check reads it: $(name) substitution is not run, so a field that refers to a variable keeps the text $(name). Give an exec check its own env map',
    { REGION: 'eu-west-1' },
  ),
  resultMode: runs(
    `junit: the canary has one check row (type junit, named after the canary) whose run runs every check of the spec in turn, each after the checks it dependsOn, with its own timeout, expressions and secrets, and records one result: healthy only when every check passed; the message counts passed and failed and names each failed check with its message; the details are the JUnit suite (each check's name, type, status, duration and message; a transform's fanned-out results are tests of it). Empty or left out: a result per check. Any other value is refused (OD_CANARY_SPEC); beside junit, ${JUNIT_MODE_REFUSED_TEXT} are refused, as each needs a check row of its own`,
    'junit',
  ),
  retries: refused('Retries are not run; a failing check fails until its next scheduled run'),
  agentSelector: refused('Agents are chosen by assigning the canary to an agent (agent_id), not by a selector'),
};

/** canary-checker's check types this server does not run: a canary listing any of them is refused at save. */
export const CHECK_TYPES_NOT_RUN: Readonly<Record<string, string>> = {
  docker: 'pulls a container image',
  dockerPush: 'pushes a container image',
  containerd: 'pulls an image through containerd',
  containerdPush: 'pushes an image through containerd',
  s3: 'reads and writes an S3 bucket',
  pod: 'schedules a pod in Kubernetes',
  ldap: 'binds to an LDAP server',
  mssql: 'queries Microsoft SQL Server',
  restic: 'checks a restic repository',
  jmeter: 'runs a JMeter plan',
  junit: 'runs a test pod and reads its JUnit results',
  helm: 'pushes a chart to a Helm repository',
  namespace: 'creates a Kubernetes namespace and a pod in it',
  cloudwatch: 'reads AWS CloudWatch alarms',
  pubsub: 'reads a message queue',
  github: 'queries GitHub',
  gitProtocol: 'pushes to a git repository',
  kubernetesResource: 'creates Kubernetes resources and checks them',
  awsConfig: 'queries AWS Config',
  awsConfigRule: 'reads AWS Config rule compliance',
  databaseBackup: 'checks a cloud database backup',
  dynatrace: 'reads Dynatrace problems',
  azureDevops: 'reads Azure DevOps pipeline runs',
  webhook: 'receives results pushed to a webhook',
};

/** Fields every canary-checker check type has. */
const COMMON: FieldRules = {
  name: runs('Identifies the check within its canary', 'probe'),
  description: inert('Shown with the check', 'What this check proves'),
  icon: inert('Shown with the check', 'server'),
  namespace: inert("Shown with the check; the check row takes its canary's namespace", 'default'),
  labels: inert("Shown with the check and merged over the canary's labels for filtering", { tier: 'web' }),
  owner: inert('Shown with the check', 'platform-team'),
  severity: inert('Shown with the check', 'high'),
  timeout: runs(
    'How long one run may take; the run fails after it. Write a duration (10s); a bare number is read as canary-checker reads it: seconds on dns, postgres and mysql checks, milliseconds elsewhere',
    '20s',
  ),
  transformDeleteStrategy: refused('Checks made by a transform are not kept apart from their canary; remove the field'),
  metrics: runs(
    'Prometheus metrics (gauge, counter, histogram) whose value and labels[].valueExpr are CEL over the result, exported on /metrics by the process that ran the check and stored with the result (details.metrics); names of the server\'s own metrics are refused',
    [{ name: 'site_status_code', type: 'gauge', value: 'code', labels: [{ name: 'site', value: 'www' }] }],
  ),
  markFailOnEmpty: refused('A check type without transform has no transform result to be empty'),
  dependsOn: runs(
    "Checks of the same canary (by name) this one runs after, in the same run; its expressions read their result variables as outputs.<name> (outputs.getUuid.json.uuid); when one of them fails, this check fails naming it without running. $(outputs…) in an address is not substituted",
    [],
  ),
  retries: refused('Retries are not run; a failing check fails until its next run'),
  relationships: runs(
    "Links the check (or each check its transform makes) to the topology components (components) and catalog items (configs) its selectors find after each run: id, externalID, name, namespace and type, each a value, a label of the check ({label: pod}) or CEL over result; links it no longer finds are removed",
    { configs: [{ name: { label: 'pod' }, namespace: { label: 'namespace' }, type: { value: 'Kubernetes::Pod' } }] },
  ),
};

const THRESHOLD: FieldRules = {
  thresholdMillis: runs('A passing check fails when the run takes longer than this many milliseconds', 5000),
};

/** JavaScript fields run in a WebAssembly sandbox (platform/javascript): the result variables and `_` as globals, nothing of the server. */
const SANDBOXED_JAVASCRIPT = (what: string): string =>
  `JavaScript (ES2023) run in a sandbox with no file, network or process access, the result variables and Underscore-style _ as globals, within the check's expression time; ${what}`;

/** canary-checker's test, display and transform, on the check types whose schema has them. */
const EXPRESSIONS: FieldRules = {
  'test.expr': runs('A CEL expression over the result; the check passes only when it is true, and fails when it cannot be evaluated', 'true'),
  'test.template': runs('A Go template over the result; the check passes only when it renders true', '{{ eq .code 200 }}'),
  'test.jsonPath': refused(NO_JSONPATH),
  'test.javascript': runs(SANDBOXED_JAVASCRIPT('the check passes only when its last statement is true'), 'code === 200'),
  'display.expr': runs('A CEL expression whose value becomes the message shown for the result', "'ok'"),
  'display.template': runs('A Go template whose output becomes the message shown for the result', 'ok'),
  'display.jsonPath': refused(NO_JSONPATH),
  'display.javascript': runs(SANDBOXED_JAVASCRIPT('the value of its last statement becomes the message'), '"HTTP " + code'),
  'transform.expr': runs('A CEL expression that reshapes the result, or fans it out into several checks', "''"),
  'transform.template': runs('A Go template whose output (JSON) reshapes the result, as transform.expr does', ''),
  markFailOnEmpty: runs('The check fails when its transform returns no result', true),
  'transform.jsonPath': refused(NO_JSONPATH),
  'transform.javascript': runs(SANDBOXED_JAVASCRIPT('its last statement (JSON text or a value) reshapes the result as transform.expr does'), 'JSON.stringify({message: "ok"})'),
};

/** username and password as canary-checker writes them: a value, `{value}`, or a reference this server does not read. */
function credentials(note: string): FieldRules {
  return {
    username: runs(`${note} user name: a value, {value: …} or ${VALUE_FROM}`, 'monitor'),
    password: runs(`${note} password: a value or {value: …} (stored sealed), or ${VALUE_FROM}`, { value: 's3cret-pass' }),
    ...unresolvedReferences('username'),
    ...unresolvedReferences('password'),
  };
}

/** Mission Control's `$(username):$(password)@` in a connection string, filled in at run time. */
const PLACED_CREDENTIALS = '; $(username) and $(password) in its user part (scheme://$(username):$(password)@host) are filled in from username and password, URL-encoded (anywhere else: 400 OD_URL_PLACEHOLDER)';

const credentialsElsewhere = (where: string): FieldRules => ({
  username: refused(`A top-level user name is not read by this check; write ${where}`),
  password: refused(`A top-level password is not read by this check; write ${where}`),
});

/** What a client certificate or key example needs beside it: the other half. */
const CLIENT_KEY = (at: string): Record<string, unknown> => ({ [at]: { key: '-----BEGIN PRIVATE KEY-----' } });
const CLIENT_CERT = (at: string): Record<string, unknown> => ({ [at]: { cert: '-----BEGIN CERTIFICATE-----' } });

const HTTP_RULES: FieldRules = {
  ...COMMON,
  ...THRESHOLD,
  ...EXPRESSIONS,
  url: runs('The address requested', 'http://127.0.0.1:9/health'),
  endpoint: runs('The address requested, when url is not set', 'http://127.0.0.1:9/'),
  connection: runs("A stored connection whose URL and credentials are used; url may only stay on its origin", 'http://127.0.0.1:9'),
  method: runs('The HTTP method (GET when left out)', 'POST'),
  headers: runs(`Request headers, as a map or a list of {name, value}; values off the public list are stored sealed; an entry may give ${VALUE_FROM} instead of value`, [{ name: 'Accept', value: 'application/json' }]),
  ...unresolvedReferences('headers[]'),
  body: runs('The request body, stored sealed', '{"ping":true}'),
  authentication: runs('Basic authentication: {username, password}, the password stored sealed', { username: 'monitor', password: 'p4ss-word' }),
  ...credentials('The Basic authentication (when authentication is not set)'),
  responseCodes: runs('Status codes that pass (2xx and 3xx when left out)', [200, 204]),
  responseContent: runs('Text the response body must contain', 'ok'),
  maxSSLExpiry: runs('The check fails when the certificate expires within this many days', 7),
  'tlsConfig.insecureSkipVerify': runs('Accept any server certificate', true),
  'tlsConfig.ca': runs(`A PEM CA certificate the server certificate must chain to: a value, {value: …} or ${VALUE_FROM}`, '-----BEGIN CERTIFICATE-----'),
  ...unresolvedReferences('tlsConfig.ca'),
  'tlsConfig.cert': runs(`A PEM client certificate, sent with key when the server asks for one (mutual TLS): a value, {value: …} or ${VALUE_FROM}`, '-----BEGIN CERTIFICATE-----', CLIENT_KEY('tlsConfig')),
  ...unresolvedReferences('tlsConfig.cert'),
  'tlsConfig.key': runs(`The client certificate's PEM private key, stored sealed: a value, {value: …} or ${VALUE_FROM}`, '-----BEGIN PRIVATE KEY-----', CLIENT_CERT('tlsConfig')),
  ...unresolvedReferences('tlsConfig.key'),
  'tlsConfig.handshakeTimeout': refused('The TLS handshake shares the check timeout; set timeout'),
  maxRedirects: inert('0 only, which is what this server always does: redirects are never followed, so the 3xx is the answer judged (canary-checker follows some by default); a higher number is refused: point url at the final address', 0),
  responseJSONContent: refused('Write the condition in test.expr, e.g. json.status == "ok"'),
  ntlm: refused('NTLM authentication is not run; use authentication (Basic) or a header'),
  ntlmv2: refused('NTLM authentication is not run; use authentication (Basic) or a header'),
  digest: runs(
    'Digest access authentication (RFC 7616: MD5, SHA-256 and their -sess forms, qop auth) with username and password: the first request takes the challenge, the second answers it',
    true,
    { username: 'monitor', password: 's3cret-pass' },
  ),
  templateBody: runs('The body is a Go template over canary, check and the env values ({{.canary.name}}, {{.token}}); one that does not render fails the check', true),
  env: runs(
    `Values for templateBody, as a list [{name, value}]; values with secret names are stored sealed. They reach the body only: $(name) in url, endpoint or headers is refused, so a secret can only go to the address written in the check. An entry may give ${VALUE_FROM} instead of value`,
    [{ name: 'region', value: 'eu-west-1' }],
  ),
  ...unresolvedReferences('env[]'),
  oauth2: runs(
    'OAuth 2 client credentials {tokenURL, scope, params}: username and password (the client id and secret) go to tokenURL, never to url, with scope space-separated and params as extra form fields; the token it returns is sent as Authorization: Bearer. A sealed secret is bound to both origins, so changing tokenURL asks for the secret again',
    { tokenURL: 'https://idp.invalid/oauth/token', scope: ['read'], params: { audience: 'api' } },
    { username: 'client-id', password: 'client-secret' },
  ),
  awsSigV4: runs(
    'AWS Signature Version 4 {accessKey, secretKey, sessionToken, region, service}: the keys are stored sealed (each a value, {value: …} or valueFrom); the secret key only signs and never leaves this server; a session token goes as X-Amz-Security-Token; username, password and authentication are refused beside it',
    { accessKey: { value: 'AKIDEXAMPLE' }, secretKey: { value: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' }, region: 'us-east-1', service: 'execute-api' },
  ),
  'awsSigV4.connection': refused('AWS connections are not read for signing; give accessKey and secretKey (valueFrom may name a stored connection)'),
  'awsSigV4.assumeRole': refused('Roles are not assumed (no STS call); sign with the role\'s own keys'),
  'awsSigV4.endpoint': refused('The request goes to url; an STS endpoint is not used'),
  'awsSigV4.skipTLSVerify': refused('Set tlsConfig.insecureSkipVerify for the request'),
  crawl: runs(
    "Follows the page's <a href> links breadth first (depth, default 10; parallelism, default 2; delay and randomDelay between batches) within allowedDomains (the URL's host when none) and the URL filters, at most 500 pages, GET without credentials or redirects; the check fails listing the pages that did not answer 2xx (results: missing, visited). Refused beside headers, a body, credentials or a connection",
    { depth: 2, parallelism: 2, disallowedURLFilters: ['/cdn-cgi/'] },
  ),
};

const TCP_RULES: FieldRules = {
  ...COMMON,
  ...THRESHOLD,
  ...EXPRESSIONS,
  endpoint: runs('host:port to connect to', '127.0.0.1:9'),
  url: runs('host:port (or scheme://host:port) to connect to, when endpoint is not set', 'tcp://127.0.0.1:9'),
};

const DNS_RULES: FieldRules = {
  ...COMMON,
  ...THRESHOLD,
  server: runs('The DNS server asked (the system resolver when left out)', '127.0.0.1'),
  port: runs("The DNS server's port (53 when left out)", 5353),
  query: runs('The name looked up', 'localhost'),
  querytype: runs('A, AAAA, CNAME, MX, NS, PTR, SRV or TXT (A when left out)', 'A'),
  minrecords: runs('The least number of records that passes', 1),
  exactreply: runs('The records the answer must be, exactly', ['127.0.0.1']),
};

const ICMP_RULES: FieldRules = {
  ...COMMON,
  ...THRESHOLD,
  endpoint: runs('The host pinged', '127.0.0.1'),
  packetCount: runs('Packets sent (3 when left out)', 2),
  packetLossThreshold: runs('The highest packet loss, in percent, that passes', 50),
};

/** What a checkout example needs beside it. */
const CHECKOUT_URL = { checkout: { url: 'file:///srv/git/ops.git' } };

const EXEC_RULES: FieldRules = {
  ...COMMON,
  ...THRESHOLD,
  ...EXPRESSIONS,
  script: runs('A script run in the exec sandbox: bash, or the interpreter its #! line names (python, python3, node, pwsh, sh…), as Mission Control does; another interpreter is refused. Exit code 0 passes unless test.expr says otherwise', 'echo ok'),
  env: runs('Environment variables as a map NAME: value or a list [{name, value}]; values with secret names are stored sealed and scrubbed from output', [{ name: 'GREETING', value: 'hello' }]),
  'env[].valueFrom': refused(SCRIPT_REFERENCE),
  'connections.aws': runs('{connection}: a stored aws or s3 connection; the script gets AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_DEFAULT_REGION and AWS_ENDPOINT_URL, scrubbed from its output', { connection: 'connection://ops/aws' }),
  'connections.kubernetes': runs("{connection}: a stored kubernetes connection; its kubeconfig is written to a file in the script's private folder (mode 600) named by KUBECONFIG", { connection: 'connection://ops/cluster' }),
  'connections.azure': runs('{connection}: a stored azure connection; the script gets AZURE_CLIENT_ID, AZURE_CLIENT_SECRET and AZURE_TENANT_ID', { connection: 'connection://ops/azure' }),
  ...Object.fromEntries(
    ['accessKey', 'secretKey', 'sessionToken', 'region', 'endpoint', 'assumeRole', 'skipTLSVerify'].map((field) => [
      `connections.aws.${field}`,
      refused('Inline credentials are not handed to scripts: store them in an aws connection and name it with connection'),
    ]),
  ),
  ...Object.fromEntries(
    ['gcp', 'fromConfigItem', 'eksPodIdentity', 'serviceAccount', 'opensearch'].map((kind) => [
      `connections.${kind}`,
      refused('Not handed to scripts here: aws, kubernetes and azure connections are (connections.<kind>.connection)'),
    ]),
  ),
  'checkout.url': runs('A repository cloned (depth 1, as the sandbox user, with credentials only from checkout.connection) into the folder the script starts in: https://, http://, file://, or host/path read as https://', 'file:///srv/git/ops.git'),
  'checkout.branch': runs('The branch or tag checked out (the default branch when left out)', 'main', CHECKOUT_URL),
  'checkout.depth': runs('How many commits to fetch (1 when left out)', 1, CHECKOUT_URL),
  'checkout.type': inert('The kind of git host; the clone is the same for all', 'github', CHECKOUT_URL),
  'checkout.connection': runs('A stored connection (git, github, azure_devops, http) whose user name and password or token git sends as a Basic header, only to requests on its own origin (a GitHub or Azure DevOps token without a URL: github.com or dev.azure.com); the checkout url must be on that origin', 'connection://ops/git', CHECKOUT_URL),
  'checkout.username': refused('Credentials are not handed to git: name a stored connection in checkout.connection'),
  'checkout.password': refused('Credentials are not handed to git: name a stored connection in checkout.connection'),
  'checkout.certificate': refused('SSH keys are not handed to git: clone over https with a connection in checkout.connection'),
  'checkout.destination': refused('The checkout is the folder the script starts in; copy files from there'),
  artifacts: runs(
    'Files the script writes that the check keeps, newest run only, downloadable from the check: a path or glob (*, **) relative to where the script starts, or /dev/stdout and /dev/stderr for its output; only regular files the script itself wrote during the run, at most 20 files and 10 MB; stored secrets are scrubbed from them',
    [{ path: 'report.txt' }],
  ),
};

function sqlRules(database: string): FieldRules {
  return {
    ...COMMON,
    ...THRESHOLD,
    ...EXPRESSIONS,
    url: runs(
      `The ${database} connection string (without a password: give it in password)${database === 'mysql' ? "; Go's DSN form user@tcp(host:3306)/db is read as mysql://user@host:3306/db" : ''}${PLACED_CREDENTIALS}`,
      `${database}://db.invalid:5432/app`,
    ),
    connection: runs(`A stored connection, or a connection string${PLACED_CREDENTIALS}`, `${database}://db.invalid:5432/app`),
    ...credentials('The'),
    query: runs('One read-only statement (SELECT 1 when left out)', 'select 1'),
    results: runs('The number of rows that passes', 1),
  };
}

const REDIS_RULES: FieldRules = {
  ...COMMON,
  ...THRESHOLD,
  addr: runs('host:port of the server', '127.0.0.1:6379'),
  url: runs(`The server as a redis:// address, when addr is not set${PLACED_CREDENTIALS}`, 'redis://127.0.0.1:6379'),
  connection: runs(`A stored connection, or a redis:// address${PLACED_CREDENTIALS}`, 'redis://127.0.0.1:6379'),
  db: runs('The database number (0 when left out)', 1),
  ...credentials('The'),
  'tlsConfig.enable': runs('Connect over TLS (also on when insecureSkipVerify, ca or cert is set, or the address is rediss://)', true),
  'tlsConfig.insecureSkipVerify': runs('Accept any server certificate', true),
  'tlsConfig.ca': runs(`A PEM CA certificate the server certificate must chain to: a value, {value: …} or ${VALUE_FROM}`, '-----BEGIN CERTIFICATE-----'),
  ...unresolvedReferences('tlsConfig.ca'),
  'tlsConfig.cert': runs(`A PEM client certificate, sent with key (mutual TLS): a value, {value: …} or ${VALUE_FROM}`, '-----BEGIN CERTIFICATE-----'),
  ...unresolvedReferences('tlsConfig.cert'),
  'tlsConfig.key': runs(`The client certificate's PEM private key, stored sealed: a value, {value: …} or ${VALUE_FROM}`, '-----BEGIN PRIVATE KEY-----'),
  ...unresolvedReferences('tlsConfig.key'),
  'tlsConfig.handshakeTimeout': runs('How long the connection and TLS handshake may take (the check timeout when left out)', '5s'),
};

const MONGO_RULES: FieldRules = {
  ...COMMON,
  ...THRESHOLD,
  url: runs(`The mongodb:// connection string${PLACED_CREDENTIALS}`, 'mongodb://127.0.0.1:27017/admin'),
  connection: runs(`A stored connection, or a connection string${PLACED_CREDENTIALS}`, 'mongodb://127.0.0.1:27017/admin'),
  ...credentials('The'),
};

const FOLDER_REMOTE = 'Only local folders, SFTP (sftpConnection) and S3 (s3://bucket/prefix with awsConnection) are read; GCS and SMB are not';
const SFTP = { path: '/backups' };
const S3_PATH = { path: 's3://backups/db/' };

const FOLDER_RULES: FieldRules = {
  ...COMMON,
  ...EXPRESSIONS,
  path: runs('The folder whose files are judged: a local path or glob, or s3://bucket/prefix (globs with ** allowed after the bucket)', '/tmp'),
  'filter.minAge': runs('Count only files at least this old', '1m'),
  'filter.maxAge': runs('Count only files at most this old', '30d'),
  'filter.minSize': runs('Count only files at least this large', '1'),
  'filter.maxSize': runs('Count only files at most this large', '1Gi'),
  'filter.regex': runs('Count only files whose name matches', '.*'),
  'filter.since': runs(
    'Count only files changed after this time: RFC 3339 or date math (now-60d, now-1h), usually a Go template over the previous run ({{ last_result.results.max }}), as stateful folder checks write it',
    'now-60d',
  ),
  minAge: runs('The newest file must be at least this old', '0s'),
  maxAge: runs('The newest file must be at most this old', '3650d'),
  minCount: runs('The least number of files that passes', 0),
  maxCount: runs('The most files that passes', 100000),
  minSize: runs('Every file must be at least this large', '0'),
  maxSize: runs('Every file must be at most this large', '100Gi'),
  recursive: runs('Read the files of every sub-folder below path too (an s3:// listing always holds every key below the prefix, so false is refused there)', true),
  availableSize: refused('Free space is not judged; use an exec check running df'),
  totalSize: refused('Total size is not judged; use maxSize on each file, or test.expr'),
  thresholdMillis: refused('A folder check has no latency to judge'),
  'awsConnection.connection': runs(
    "A stored aws or s3 connection whose access key, secret key, region and endpoint list the bucket; its keys sign requests to its own endpoint only (AWS's when it has none)",
    'connection://ops/backups',
    S3_PATH,
  ),
  'awsConnection.accessKey': runs(`The access key id, stored sealed: a value, {value: …} or ${VALUE_FROM}`, { value: 'AKIDEXAMPLE' }, { ...S3_PATH, awsConnection: { secretKey: { value: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' } } }),
  'awsConnection.secretKey': runs(`The secret key, stored sealed; it only signs and never leaves this server: a value, {value: …} or ${VALUE_FROM}`, { value: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' }, { ...S3_PATH, awsConnection: { accessKey: { value: 'AKIDEXAMPLE' } } }),
  'awsConnection.sessionToken': runs('A session token sent with the signed requests, stored sealed', { value: 'FwoGZXIvYXdzEXAMPLE' }, { ...S3_PATH, awsConnection: { accessKey: 'AKIDEXAMPLE', secretKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' } }),
  'awsConnection.region': runs('The bucket region (us-east-1 when left out)', 'eu-central-1', S3_PATH),
  'awsConnection.endpoint': runs("An S3-compatible server's http(s)://host[:port] (MinIO…); AWS's regional endpoint when left out", 'http://127.0.0.1:9000', S3_PATH),
  'awsConnection.usePathStyle': runs('Address the bucket as endpoint/bucket rather than bucket.endpoint', true, S3_PATH),
  'awsConnection.skipTLSVerify': runs("Accept any certificate from the endpoint", true, S3_PATH),
  'awsConnection.objectPath': refused('Write the prefix in path: s3://bucket/prefix'),
  'awsConnection.assumeRole': refused('Roles are not assumed (no STS call); give the role\'s own keys'),
  gcpConnection: refused(FOLDER_REMOTE),
  smbConnection: refused(FOLDER_REMOTE),
  'sftpConnection.connection': runs("A stored sftp connection whose host, port, user name and password list path on that server", 'connection://ops/files', SFTP),
  'sftpConnection.host': runs('The SFTP server (its host key is not pinned: the password is bound to this host, and changing it asks for the password again)', 'files.example.com', SFTP),
  'sftpConnection.port': runs('The SSH port (22 when left out)', 22, { ...SFTP, sftpConnection: { host: 'files.example.com' } }),
  'sftpConnection.username': runs('The user name: a value or {value: …}', 'backup', { ...SFTP, sftpConnection: { host: 'files.example.com' } }),
  'sftpConnection.password': runs('The password, stored sealed and sent only to host: a value or {value: …}', { value: 's3cret-pass' }, { ...SFTP, sftpConnection: { host: 'files.example.com', username: 'backup' } }),
};

const PROMETHEUS_AUTH = 'Credentials other than a stored connection are not sent to Prometheus; name a connection';

const PROMETHEUS_RULES: FieldRules = {
  ...COMMON,
  ...THRESHOLD,
  ...EXPRESSIONS,
  url: runs('The Prometheus base URL', 'http://127.0.0.1:9090'),
  connection: runs("A stored connection whose URL and credentials are used", 'http://127.0.0.1:9090'),
  query: runs('The PromQL instant query', 'up'),
  results: runs('The number of series that passes', 1),
  'threshold.min': runs('Every value must be at least this', 0),
  'threshold.max': runs('Every value must be at most this', 1),
  username: refused(PROMETHEUS_AUTH),
  password: refused(PROMETHEUS_AUTH),
  bearer: refused(PROMETHEUS_AUTH),
  oauth: refused(PROMETHEUS_AUTH),
  headers: refused(PROMETHEUS_AUTH),
  awsSigV4: refused('AWS Signature V4 signing is not run'),
  ntlm: refused(PROMETHEUS_AUTH),
  ntlmv2: refused(PROMETHEUS_AUTH),
  digest: refused(PROMETHEUS_AUTH),
  'tls.insecureSkipVerify': runs('Accept any server certificate', true),
  'tls.ca': runs(`A PEM CA certificate the server certificate must chain to: a value, {value: …} or ${VALUE_FROM}`, '-----BEGIN CERTIFICATE-----'),
  ...unresolvedReferences('tls.ca'),
  'tls.cert': runs(`A PEM client certificate, sent with key (mutual TLS): a value, {value: …} or ${VALUE_FROM}`, '-----BEGIN CERTIFICATE-----', CLIENT_KEY('tls')),
  ...unresolvedReferences('tls.cert'),
  'tls.key': runs(`The client certificate's PEM private key, stored sealed: a value, {value: …} or ${VALUE_FROM}`, '-----BEGIN PRIVATE KEY-----', CLIENT_CERT('tls')),
  ...unresolvedReferences('tls.key'),
  'tls.handshakeTimeout': refused('The TLS handshake shares the check timeout; set timeout'),
  host: refused('Write the address as url'),
};

const CATALOG_RULES: FieldRules = {
  ...COMMON,
  ...EXPRESSIONS,
  'selector.types': runs('Config types counted (any when left out)', ['Kubernetes::Pod']),
  'selector.name': runs('Config name, with * as a wildcard', 'web-*'),
  'selector.statuses': runs('Statuses counted', ['Running']),
  'selector.healths': runs('Healths counted', ['healthy']),
  'selector.labels': runs('Labels every counted item has', { app: 'web' }),
  'selector.labelSelector': refused('Write labels as selector.labels (a map)'),
  'selector.fieldSelector': refused('Field selectors are not read; use types, name, statuses, healths and labels'),
  'selector.search': refused('Search expressions are not read; use types, name, statuses, healths and labels'),
  minCount: runs('The least number of matching items that passes (1 when left out)', 0),
  maxCount: runs('The most matching items that passes', 1000),
  thresholdMillis: refused('A catalog check has no latency to judge'),
};

const searchIndexRules = (product: string): FieldRules => ({
  ...COMMON,
  ...THRESHOLD,
  ...EXPRESSIONS,
  url: runs(`The ${product} base URL`, 'http://127.0.0.1:9200'),
  connection: runs("A stored connection whose URL and credentials are used", 'http://127.0.0.1:9200'),
  index: runs('The index or pattern searched', 'logs-*'),
  query: runs('A search body or query clause, as JSON text or an object (match_all when left out)', '{"match_all":{}}'),
  results: runs('The number of hits that passes', 0),
  authentication: runs('Basic authentication: {username, password}, the password stored sealed', { username: 'elastic', password: 'p4ss-word' }),
  ...credentials('The Basic authentication (instead of authentication; both together are refused)'),
});

const ALERTMANAGER_RULES: FieldRules = {
  ...COMMON,
  ...THRESHOLD,
  ...EXPRESSIONS,
  url: runs('The Alertmanager base URL', 'http://127.0.0.1:9093'),
  connection: runs("A stored connection whose URL and credentials are used", 'http://127.0.0.1:9093'),
  alerts: runs('Alert names or anchored regular expressions watched (every alert when left out)', ['KubePod.*']),
  ignore: runs('Alert names or anchored regular expressions never watched', ['Watchdog']),
  filters: runs('Label matchers the server narrows alerts by', { severity: 'critical' }),
  exclude_filters: runs('Label values that exclude an alert', { namespace: 'dev' }),
  ...credentialsElsewhere('them in a stored connection and name it in connection'),
};

const KUBERNETES_SELECTOR = (what: string): FieldRules => ({
  [`${what}.name`]: runs(`${what === 'resource' ? 'Resource' : 'Namespace'} names: a comma list of names or globs (*), each one led by ! an exclusion`, what === 'resource' ? 'web-*' : 'kube-*,!kube-public'),
  [`${what}.labelSelector`]: runs('A Kubernetes label selector, passed to the API as written', 'app=web'),
  [`${what}.fieldSelector`]: runs('A Kubernetes field selector, passed to the API as written', 'status.phase=Running'),
  [`${what}.search`]: refused('Search expressions are not read; select by name, labelSelector and fieldSelector'),
});

const KUBERNETES_CONNECTION = 'A stored kubernetes connection (connection://namespace/name) whose kubeconfig or URL and token the check reads the cluster with; without one the server uses its own service account when it runs in a cluster';

const KUBERNETES_RULES: FieldRules = {
  ...COMMON,
  ...EXPRESSIONS,
  kind: runs('The resource kind listed (Pod, Deployment, a custom resource kind…)', 'Pod'),
  apiVersion: runs('The API group version of kind (apps/v1), when the kind alone is ambiguous; found through API discovery when left out', 'v1'),
  ...KUBERNETES_SELECTOR('namespaceSelector'),
  ...KUBERNETES_SELECTOR('resource'),
  ignore: runs('Resource names or globs left out of the result', ['*-canary']),
  healthy: runs('The check fails when any resource listed is not healthy', true),
  ready: runs('The check fails when any resource listed is not ready', true),
  connection: runs(KUBERNETES_CONNECTION, 'connection://ops/cluster'),
  kubeconfig: runs(`${KUBERNETES_CONNECTION}; an inline kubeconfig, a file path or a valueFrom is refused at save`, 'connection://ops/cluster'),
  'kubeconfig.valueFrom': refused('Kubeconfigs are read from stored kubernetes connections only: name one with kubeconfig: connection://namespace/name'),
  'kubeconfig.value': refused('Inline kubeconfigs are not kept in a canary: store it in a kubernetes connection and name it with kubeconfig: connection://namespace/name'),
  eks: refused('EKS credentials are not fetched; store a kubeconfig in a kubernetes connection'),
  gke: refused('GKE credentials are not fetched; store a kubeconfig in a kubernetes connection'),
  cnrm: refused('CNRM clusters are not read; store a kubeconfig in a kubernetes connection'),
  thresholdMillis: refused('A kubernetes check has no latency to judge'),
};

/** Every field of every check type this server runs. */
export const CHECK_FIELD_RULES: Readonly<Record<CheckType, FieldRules>> = {
  http: HTTP_RULES,
  tcp: TCP_RULES,
  dns: DNS_RULES,
  icmp: ICMP_RULES,
  exec: EXEC_RULES,
  postgres: sqlRules('postgres'),
  mysql: sqlRules('mysql'),
  redis: REDIS_RULES,
  mongodb: MONGO_RULES,
  folder: FOLDER_RULES,
  prometheus: PROMETHEUS_RULES,
  catalog: CATALOG_RULES,
  elasticsearch: searchIndexRules('Elasticsearch'),
  opensearch: searchIndexRules('OpenSearch'),
  alertmanager: ALERTMANAGER_RULES,
  kubernetes: KUBERNETES_RULES,
};

/** The top-level key a rule's path starts with: `tlsConfig` for `tlsConfig.ca`, `env` for `env[]`. */
export function topLevelKey(path: string): string {
  return path.split(/[.[]/, 1)[0] ?? path;
}

/** The smallest entry of each check type that saves: the base the catalogue's examples are tried on. */
export const MINIMAL_CHECKS: Readonly<Record<CheckType, Readonly<Record<string, unknown>>>> = {
  http: { name: 'probe', url: 'http://127.0.0.1:9/' },
  tcp: { name: 'probe', endpoint: '127.0.0.1:9' },
  dns: { name: 'probe', query: 'localhost' },
  icmp: { name: 'probe', endpoint: '127.0.0.1' },
  exec: { name: 'probe', script: 'true' },
  postgres: { name: 'probe', url: 'postgres://db.invalid:5432/app' },
  mysql: { name: 'probe', url: 'mysql://db.invalid:3306/app' },
  redis: { name: 'probe', addr: '127.0.0.1:6379' },
  mongodb: { name: 'probe', url: 'mongodb://127.0.0.1:27017/admin' },
  folder: { name: 'probe', path: '/tmp' },
  prometheus: { name: 'probe', url: 'http://127.0.0.1:9090', query: 'up' },
  catalog: { name: 'probe' },
  elasticsearch: { name: 'probe', url: 'http://127.0.0.1:9200', index: 'logs' },
  opensearch: { name: 'probe', url: 'http://127.0.0.1:9200', index: 'logs' },
  alertmanager: { name: 'probe', url: 'http://127.0.0.1:9093' },
  kubernetes: { name: 'probe', kind: 'Pod' },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A copy of `entry` holding `value` at a catalogue path, the objects on the way kept and merged (`a[]` puts a list of
 * one entry): how a check holding one field of the catalogue, or all of them, is built from its minimal entry.
 */
/** `entry` with the rule's example at `path`, and the fields that example needs beside it. */
export function placeExample(entry: Readonly<Record<string, unknown>>, path: string, rule: FieldRule): Record<string, unknown> {
  if (rule.verdict === 'refused') return { ...entry };
  return placeAt(withNeeds(entry, rule.needs ?? {}), path, rule.example);
}

/**
 * `entry` with what `needs` says, objects merged key by key and other values replaced: a field may need a value the
 * entry holds otherwise (an S3 key needs an s3:// path where the minimal folder check has a local one).
 */
function withNeeds(entry: Readonly<Record<string, unknown>>, needs: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...entry };
  for (const [key, value] of Object.entries(needs)) {
    const current = merged[key];
    merged[key] = isRecord(current) && isRecord(value) ? withNeeds(current, value) : value;
  }
  return merged;
}

export function placeAt(entry: Readonly<Record<string, unknown>>, path: string, value: unknown): Record<string, unknown> {
  const [first = path, ...rest] = path.split('.');
  const isList = first.endsWith('[]');
  const key = isList ? first.slice(0, -2) : first;
  const current = entry[key];
  const inner = rest.length === 0 ? value : placeAt(!isList && isRecord(current) ? current : {}, rest.join('.'), value);
  return { ...entry, [key]: isList ? [inner] : inner };
}

/** The value of `entry` at a dotted path, or undefined. */
export function valueAtPath(entry: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), entry);
}
