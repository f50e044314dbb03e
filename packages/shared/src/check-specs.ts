import { z } from 'zod';
import { parseDurationMs } from './durations';
import { parseSizeBytes } from './sizes';
import { scriptInterpreterProblem } from './script-interpreter';

/** A secret as the server stores it in a spec (ADR 0043): only the server can open it; clients send it back untouched. */
export const sealedSecretSchema = z.strictObject({ $encrypted: z.string() });
export type SealedSecret = z.infer<typeof sealedSecretSchema>;

export function isSealedSecret(value: unknown): value is SealedSecret {
  return sealedSecretSchema.safeParse(value).success;
}

/**
 * A secret-capable field (spec 001 §3): a static value, written plainly or as {value}, or stored sealed. Sealed values
 * validate here; the scheduler opens them before a check runs, so a checker never sees one.
 */
const secretValue = z
  .union([z.string(), z.strictObject({ value: z.string() }), sealedSecretSchema])
  .transform((v) => (typeof v === 'string' ? v : 'value' in v ? v.value : ''));

const keyReference = z.strictObject({ name: z.string().min(1, 'This field is required'), key: z.string().min(1, 'This field is required') });
/**
 * Kubernetes' `valueFrom` as canary-checker reads it, for the references this server resolves (ADR 0075): a secret key
 * or a config map key, both read from the stored connection of that name. The scheduler puts the value in place just
 * before a check runs, so a checker never sees a reference.
 */
export const valueReferenceSchema = z
  .strictObject({ secretKeyRef: keyReference.optional(), configMapKeyRef: keyReference.optional() })
  .refine((from) => (from.secretKeyRef === undefined) !== (from.configMapKeyRef === undefined), 'must name exactly one of secretKeyRef and configMapKeyRef');
export type ValueReference = z.infer<typeof valueReferenceSchema>;
const referenced = z.strictObject({ valueFrom: valueReferenceSchema });
/** A secret-capable field that may also name a stored value (`valueFrom`); the reference reads as '' until resolved. */
const referencedSecret = z.union([secretValue, referenced.transform(() => '')]);
const duration = z.union([z.string(), z.number()]).refine((v) => parseDurationMs(v) !== null, 'must be a duration such as 500ms, 30s or 1h');
const size = z.union([z.string(), z.number()]).refine((v) => parseSizeBytes(v) !== null, 'must be a size such as 512, 10MB or 1Gi');
const labels = z.record(z.string(), z.string());
/** A non-secret value canary-checker lets authors write plainly or as `{value}`. */
const plainValue = z.union([z.string(), z.strictObject({ value: z.string() })]).transform((v) => (typeof v === 'string' ? v : v.value));
const referencedPlain = z.union([plainValue, referenced.transform(() => '')]);

/**
 * Names of the server's own metrics (docs/metrics.md): a check's metric may not take one, or a canary could overwrite
 * what the operators read about the server itself.
 */
export const RESERVED_METRIC_PREFIXES = ['opsdeck_', 'http_request', 'process_', 'nodejs_'] as const;
export const CHECK_METRIC_TYPES = ['gauge', 'counter', 'histogram'] as const;
/** At most this many metrics per check, and labels per metric: each label value multiplies the series. */
export const MAX_CHECK_METRICS = 20;
export const MAX_METRIC_LABELS = 10;

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const METRIC_LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

const metricLabel = z.strictObject({
  name: z
    .string()
    .regex(METRIC_LABEL_NAME, 'must be a Prometheus label name: letters, digits and _, not starting with a digit')
    .refine((name) => !name.startsWith('__'), 'must not start with __, which Prometheus keeps for itself'),
  value: z.union([z.string(), z.number(), z.boolean()]).transform(String).optional(),
  valueExpr: z.string().optional(),
});

/** canary-checker's `metrics` entry: value and valueExpr are CEL over the check's result variables, evaluated per run. */
export const checkMetricSchema = z
  .strictObject({
    name: z
      .string()
      .regex(METRIC_NAME, 'must be a Prometheus metric name: letters, digits, _ and :, not starting with a digit')
      .refine((name) => !RESERVED_METRIC_PREFIXES.some((prefix) => name.startsWith(prefix)), {
        error: `must not start with ${RESERVED_METRIC_PREFIXES.join(', ')}: those are the server's own metrics`,
      }),
    type: z.enum(CHECK_METRIC_TYPES, { error: `must be one of ${CHECK_METRIC_TYPES.join(', ')}` }),
    value: z.union([z.string().min(1, 'This field is required'), z.number()]).transform(String),
    labels: z.array(metricLabel).max(MAX_METRIC_LABELS, `at most ${MAX_METRIC_LABELS} labels per metric`).optional(),
  })
  .refine((metric) => new Set((metric.labels ?? []).map((label) => label.name)).size === (metric.labels ?? []).length, {
    error: 'names a label twice',
    path: ['labels'],
  });
export type CheckMetricSpec = z.output<typeof checkMetricSchema>;

/** A check may wait for at most this many others of its canary. */
export const MAX_DEPENDS_ON = 20;

/** One field of a relationship selector: a fixed value, a label of the check, or CEL over `result`. */
const relationshipValue = z
  .strictObject({ value: z.string().optional(), label: z.string().optional(), expr: z.string().optional() })
  .refine((field) => [field.value, field.label, field.expr].filter((part) => part !== undefined).length === 1, 'must give exactly one of value, label and expr');

/** duty's RelationshipSelectorTemplate: which components or catalog items a check (or each check its transform makes) is linked to. */
const relationshipSelector = z
  .strictObject({ id: relationshipValue.optional(), externalID: relationshipValue.optional(), name: relationshipValue.optional(), namespace: relationshipValue.optional(), type: relationshipValue.optional() })
  .refine((selector) => Object.values(selector).some((field) => field !== undefined), 'must name at least one of id, externalID, name, namespace and type');

export interface RelationshipValueSpec {
  value?: string | undefined;
  label?: string | undefined;
  expr?: string | undefined;
}

export interface RelationshipSelectorSpec {
  id?: RelationshipValueSpec | undefined;
  externalID?: RelationshipValueSpec | undefined;
  name?: RelationshipValueSpec | undefined;
  namespace?: RelationshipValueSpec | undefined;
  type?: RelationshipValueSpec | undefined;
}

export interface CheckRelationshipsSpec {
  components?: RelationshipSelectorSpec[] | undefined;
  configs?: RelationshipSelectorSpec[] | undefined;
}

// Annotated: the inferred type of every check schema holding it would grow past what declarations can carry.
export const checkRelationshipsSchema: z.ZodType<CheckRelationshipsSpec> = z.strictObject({
  components: z.array(relationshipSelector).max(10, 'at most 10 selectors').optional(),
  configs: z.array(relationshipSelector).max(10, 'at most 10 selectors').optional(),
});

/**
 * The fields every check has. Schemas are strict: a field this server does not run is refused, never stored and
 * ignored; check-catalogue.ts says for each field of canary-checker's schema whether it runs, is inert or is refused.
 */
const common = {
  name: z.string().min(1, 'This field is required'),
  description: z.string().optional(),
  icon: z.string().optional(),
  labels: labels.optional(),
  namespace: z.string().optional(),
  owner: z.string().optional(),
  severity: z.string().optional(),
  timeout: duration.optional(),
  metrics: z.array(checkMetricSchema).max(MAX_CHECK_METRICS, `at most ${MAX_CHECK_METRICS} metrics per check`).optional(),
  /** Checks of the same canary this one runs after, whose result variables its expressions read as `outputs.<name>`. */
  dependsOn: z.array(z.string().min(1, 'must name a check')).max(MAX_DEPENDS_ON, `at most ${MAX_DEPENDS_ON} checks`).optional(),
  relationships: checkRelationshipsSchema.optional(),
};

const threshold = { thresholdMillis: z.number().min(0).optional() };

/** canary-checker's `test`, `display` and `transform`, in the forms this server evaluates (CEL, Go templates, sandboxed JavaScript). */
const expression = z.strictObject({ expr: z.string().optional(), template: z.string().optional(), javascript: z.string().optional() }).optional();
const expressions = {
  test: expression,
  display: expression,
  transform: expression,
  markFailOnEmpty: z.boolean().optional(),
};

/** Headers and exec env as canary-checker writes them: a map, or a list of {name, value}; read as a map. */
const namedValues = z
  .union([z.record(z.string(), secretValue), z.array(z.strictObject({ name: z.string(), value: secretValue }))])
  .transform((h) => (Array.isArray(h) ? Object.fromEntries(h.map((entry) => [entry.name, entry.value])) : h));

/** A `{name, value}` entry that may name a stored value instead (`{name, valueFrom}`), as Kubernetes' EnvVar does. */
const referencedEntry = z
  .strictObject({ name: z.string().min(1, 'This field is required'), value: secretValue.optional(), valueFrom: valueReferenceSchema.optional() })
  .refine((entry) => (entry.value === undefined) !== (entry.valueFrom === undefined), { error: 'must have exactly one of value and valueFrom', path: ['value'] })
  .transform((entry) => ({ name: entry.name, value: entry.value ?? '' }));

/** http headers: namedValues whose entries may also name a stored value. */
const referencedHeaders = z
  .union([z.record(z.string(), referencedSecret), z.array(referencedEntry)])
  .transform((h) => (Array.isArray(h) ? Object.fromEntries(h.map((entry) => [entry.name, entry.value])) : h));

/**
 * canary-checker fills `$(name)` / `$(.name)` in an http check's address from its env. Not here: a value (sealed or
 * not) placed into the address would carry a secret to wherever the value points, past the binding of each secret to
 * the address written in the check. Refused rather than sent as written.
 */
const ENV_SUBSTITUTION = /\$\(\s*\.?[A-Za-z_][\w.]*\s*\)/;
export const HTTP_ADDRESS_SUBSTITUTION_MESSAGE = '$(name) substitution in the address is not run by this server: write the address in place (env values reach the body through templateBody)';
const httpAddress = z.string().refine((address) => !ENV_SUBSTITUTION.test(address.replace(/\$\((username|password)\)/g, '')), HTTP_ADDRESS_SUBSTITUTION_MESSAGE);

/** Server verification and a client certificate (mutual TLS) for an https request: cert and key go together. */
const clientTls = z
  .strictObject({ insecureSkipVerify: z.boolean().optional(), ca: referencedPlain.optional(), cert: referencedPlain.optional(), key: referencedSecret.optional() })
  .refine((tls) => (tls.cert === undefined) === (tls.key === undefined), { error: 'cert and key go together: give both for a client certificate', path: ['cert'] });

const regexes = z.array(z.string()).refine((patterns) => patterns.every((pattern) => {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}), 'must be regular expressions');

/** canary-checker's http `crawl`: follow the page's links and report the ones that do not answer 2xx. */
const httpCrawl = z.strictObject({
  depth: z.number().int().min(1).max(20).optional(),
  parallelism: z.number().int().min(1).max(8).optional(),
  delay: duration.optional(),
  randomDelay: duration.optional(),
  allowedDomains: z.array(z.string()).optional(),
  disallowedDomains: z.array(z.string()).optional(),
  allowedURLFilters: regexes.optional(),
  disallowedURLFilters: regexes.optional(),
  filters: regexes.optional(),
});

/** A crawl sends nothing but GETs without credentials: fields that would send more are refused beside it. */
const NOT_WITH_CRAWL = ['headers', 'body', 'authentication', 'username', 'password', 'digest', 'oauth2', 'awsSigV4', 'connection', 'templateBody', 'env'] as const;

const httpCheck = z
  .strictObject({
    ...common,
    ...threshold,
    ...expressions,
    url: httpAddress.optional(),
    endpoint: httpAddress.optional(),
    connection: z.string().optional(),
    method: z.string().default('GET'),
    headers: referencedHeaders.optional(),
    body: secretValue.optional(),
    authentication: z.strictObject({ username: secretValue, password: secretValue }).optional(),
    username: referencedSecret.optional(),
    password: referencedSecret.optional(),
    responseCodes: z.array(z.number().int()).optional(),
    responseContent: z.string().optional(),
    maxSSLExpiry: z.number().min(0).optional(),
    tlsConfig: clientTls.optional(),
    templateBody: z.boolean().optional(),
    env: z.array(referencedEntry).optional(),
    maxRedirects: z.number().int().refine((max) => max === 0, 'only 0 runs here: redirects are never followed, the 3xx is the answer judged').optional(),
    crawl: httpCrawl.optional(),
    digest: z.boolean().optional(),
    oauth2: z
      .strictObject({
        tokenURL: z.string().regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL'),
        scope: z.array(z.string()).optional(),
        params: z.record(z.string(), z.string()).optional(),
      })
      .optional(),
    awsSigV4: z
      .strictObject({
        accessKey: referencedSecret,
        secretKey: referencedSecret,
        sessionToken: referencedSecret.optional(),
        region: z.string().min(1, 'This field is required'),
        service: z.string().min(1, 'This field is required'),
      })
      .optional(),
  })
  .superRefine((check, context) => {
    if (check.crawl !== undefined) {
      for (const key of NOT_WITH_CRAWL) {
        if (check[key] !== undefined && check[key] !== false) context.addIssue({ code: 'custom', path: [key], message: 'cannot be combined with crawl: a crawl sends GET requests without credentials or a body' });
      }
      if (check.method.toUpperCase() !== 'GET') context.addIssue({ code: 'custom', path: ['method'], message: 'must be GET with crawl' });
    }
    const schemes = (['digest', 'oauth2', 'awsSigV4'] as const).filter((key) => check[key] !== undefined && check[key] !== false);
    if (schemes.length > 1) context.addIssue({ code: 'custom', path: [schemes[1] ?? ''], message: `cannot be combined with ${schemes[0] ?? ''}: a request is authenticated one way` });
    // canary-checker takes the client id and secret of oauth2, and the credentials of digest, from username and password.
    const hasCredentials = check.username !== undefined || check.authentication !== undefined;
    for (const key of ['digest', 'oauth2'] as const) {
      if (check[key] !== undefined && check[key] !== false && !hasCredentials) {
        context.addIssue({ code: 'custom', path: [key], message: `needs username and password (${key === 'oauth2' ? 'the client id and secret' : 'the credentials'})` });
      }
    }
    // A signed request carries no Basic credentials: given beside awsSigV4 they would not be sent.
    if (check.awsSigV4 !== undefined && hasCredentials) {
      context.addIssue({ code: 'custom', path: ['awsSigV4'], message: 'cannot be combined with username, password or authentication: the request is signed instead' });
    }
    // duty's templates run twice, with {{ }} and then with $( ); here only {{ }} is run, so a $(name) would go out as written.
    if (check.templateBody === true && typeof check.body === 'string' && ENV_SUBSTITUTION.test(check.body)) {
      context.addIssue({ code: 'custom', path: ['body'], message: '$(name) in a templateBody body is not run by this server: write {{.name}}' });
    }
  });

const tcpCheck = z.strictObject({ ...common, ...threshold, ...expressions, endpoint: z.string().optional(), url: z.string().optional() });

const dnsCheck = z.strictObject({
  ...common,
  ...threshold,
  server: z.string().optional(),
  port: z.number().int().min(1).max(65535).optional(),
  query: z.string().min(1, 'This field is required'),
  querytype: z.enum(['A', 'AAAA', 'CNAME', 'MX', 'NS', 'PTR', 'SRV', 'TXT']).default('A'),
  minrecords: z.number().int().min(0).optional(),
  exactreply: z.array(z.string()).optional(),
});

const icmpCheck = z.strictObject({
  ...common,
  ...threshold,
  endpoint: z.string().min(1, 'This field is required'),
  packetCount: z.number().int().min(1).max(20).default(3),
  packetLossThreshold: z.number().min(0).max(100).default(0),
});

const CHECKOUT_SCHEMES = new Set(['https:', 'http:', 'file:']);
export const MAX_CHECKOUT_DEPTH = 1000;
export const CHECKOUT_BRANCH_MESSAGE = 'must be a branch or tag name (letters, digits, _, ., / and -, not starting with -)';

/** The URL a checkout clones, with https:// put before one written without a scheme (`github.com/org/repo`). */
export function checkoutUrl(text: string): string {
  const url = text.trim();
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`;
}

/**
 * Why git may not clone `text` here, or null: a repository anyone may clone, over https, http or from a file:// path,
 * and no credential in the URL (duty's checkout takes them from a connection, which this server does not hand to git).
 */
export function checkoutUrlProblem(text: string): string | null {
  if (text.trim() === '') return 'is required: the repository to clone, e.g. https://github.com/org/repo';
  // Read without URL (this package runs in browsers and servers alike): scheme, then the authority up to the path.
  const parts = /^([a-z][a-z0-9+.-]*:)\/\/([^/?#\s]*)(\S*)$/i.exec(checkoutUrl(text));
  if (parts === null) return `'${text}' is not a URL git can clone here (https://, http:// or file://)`;
  const scheme = (parts[1] ?? '').toLowerCase();
  const authority = parts[2] ?? '';
  if (!CHECKOUT_SCHEMES.has(scheme)) return `${scheme} repositories are not cloned here: use https://, http:// or file://`;
  // A user name alone (https://org@dev.azure.com/…, as Azure DevOps writes clone URLs) is no secret; a password is.
  if ((authority.split('@').slice(0, -1).join('@')).includes(':')) return 'holds a password: name a stored connection in checkout.connection instead';
  if (scheme !== 'file:' && authority === '') return `'${text}' names no host`;
  return null;
}

export const isCheckoutBranch = (branch: string): boolean => /^[\w./-]+$/.test(branch) && !branch.startsWith('-');

/** duty's checkout before an exec script (`exec[].checkout`): a public repository, cloned into the folder the script starts in. */
const execCheckout = z.strictObject({
  url: z.string().superRefine((url, context) => {
    const problem = checkoutUrlProblem(url);
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  }),
  branch: z.string().refine(isCheckoutBranch, CHECKOUT_BRANCH_MESSAGE).optional(),
  depth: z.number().int().min(1).max(MAX_CHECKOUT_DEPTH).optional(),
  type: z.string().optional(),
  connection: z.string().min(1).optional(),
});

const connectionRef = z.strictObject({ connection: z.string().min(1, 'This field is required: a stored connection (connection://namespace/name)') });

/** Stored connections whose credentials the script gets as its CLI reads them (as a playbook exec action's `connections`). */
const execConnections = z.strictObject({ aws: connectionRef.optional(), kubernetes: connectionRef.optional(), azure: connectionRef.optional() });

const execCheck = z.strictObject({
  ...common,
  ...threshold,
  ...expressions,
  script: z
    .string()
    .min(1, 'This field is required')
    .superRefine((script, context) => {
      const problem = scriptInterpreterProblem(script);
      if (problem !== null) context.addIssue({ code: 'custom', message: `The script is not run: ${problem}` });
    }),
  env: namedValues.optional(),
  checkout: execCheckout.optional(),
  connections: execConnections.optional(),
  artifacts: z.array(z.strictObject({ path: z.string().trim().min(1, 'Name a file or a glob') })).max(20, 'At most 20 artifact paths; use a glob (*, **) for more').optional(),
});

const sqlCheck = z.strictObject({
  ...common,
  ...threshold,
  ...expressions,
  connection: z.string().optional(),
  url: z.string().optional(),
  username: referencedSecret.optional(),
  password: referencedSecret.optional(),
  query: z.string().default('SELECT 1'),
  results: z.number().int().min(0).optional(),
});

/** What a Redis check's `addr` must be, in the words the health-check form shows beneath the field. */
export const REDIS_ADDRESS_MESSAGE = 'Address must be host:port';
const HOST_PORT = /^[^\s:/]+:\d{1,5}$/;

/**
 * A Redis `addr` is `host:port`, without a scheme or path: the health-check form refuses anything else as it is typed,
 * and the server refuses it on save, so a spec written as YAML or through the data API meets the same rule.
 */
export function isRedisAddress(value: string): boolean {
  return HOST_PORT.test(value.trim());
}

/**
 * canary-checker's SwitchableTLSConfig: TLS is on with `enable`, or when insecureSkipVerify, ca or cert is set (a key
 * or handshakeTimeout alone does not turn it on, as there).
 */
const redisTls = z.strictObject({
  enable: z.boolean().optional(),
  insecureSkipVerify: z.boolean().optional(),
  ca: referencedPlain.optional(),
  cert: referencedPlain.optional(),
  key: referencedSecret.optional(),
  handshakeTimeout: duration.optional(),
});

const redisCheck = z.strictObject({
  ...common,
  ...threshold,
  addr: z.string().refine(isRedisAddress, REDIS_ADDRESS_MESSAGE).optional(),
  url: z.string().optional(),
  connection: z.string().optional(),
  db: z.coerce.number().int().min(0).default(0),
  username: referencedSecret.optional(),
  password: referencedSecret.optional(),
  tlsConfig: redisTls.optional(),
});

const mongoCheck = z.strictObject({
  ...common,
  ...threshold,
  connection: z.string().optional(),
  url: z.string().optional(),
  username: referencedSecret.optional(),
  password: referencedSecret.optional(),
});

const folderFilter = z.strictObject({
  minAge: duration.optional(),
  maxAge: duration.optional(),
  minSize: size.optional(),
  maxSize: size.optional(),
  regex: z.string().optional(),
  /** A time (RFC 3339) or date math (`now-60d`), often a Go template over `last_result`: only files changed after it count. */
  since: z.string().optional(),
});

/** canary-checker's `awsConnection` of a folder check on `s3://`: a stored connection, keys (sealed) or none (public). */
const folderAwsConnection = z
  .strictObject({
    connection: z.string().min(1).optional(),
    accessKey: referencedSecret.optional(),
    secretKey: referencedSecret.optional(),
    sessionToken: referencedSecret.optional(),
    region: z.string().optional(),
    endpoint: z.string().optional(),
    usePathStyle: z.boolean().optional(),
    skipTLSVerify: z.boolean().optional(),
  })
  .refine((aws) => (aws.accessKey === undefined) === (aws.secretKey === undefined), { error: 'accessKey and secretKey go together', path: ['secretKey'] })
  .refine((aws) => aws.connection === undefined || aws.accessKey === undefined, { error: 'give a connection or keys, not both', path: ['connection'] })
  .refine((aws) => aws.endpoint === undefined || /^https?:\/\/[^/\s]+\/?$/i.test(aws.endpoint), { error: 'must be http(s)://host[:port]', path: ['endpoint'] });

/** canary-checker's `sftpConnection`: a stored sftp connection, or a host with a user name and a password (sealed). */
const folderSftpConnection = z
  .strictObject({
    connection: z.string().min(1).optional(),
    host: z.string().min(1).optional(),
    port: z.union([z.number().int().min(1).max(65535), z.string().regex(/^\d{1,5}$/, 'must be a port number')]).optional(),
    username: plainValue.optional(),
    password: secretValue.optional(),
  })
  .refine((sftp) => sftp.connection !== undefined || sftp.host !== undefined, { error: 'give a connection or a host', path: ['host'] })
  .refine((sftp) => sftp.connection === undefined || (sftp.username === undefined && sftp.password === undefined), {
    error: 'give a connection or a user name and password, not both',
    path: ['connection'],
  });

/** A folder path naming a remote store: s3:// is read; the other schemes canary-checker knows are not. */
export const FOLDER_REMOTE_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

const folderCheck = z.strictObject({
  ...common,
  ...expressions,
  path: z
    .string()
    .min(1, 'This field is required')
    .refine((path) => {
      const scheme = FOLDER_REMOTE_SCHEME.exec(path)?.[1]?.toLowerCase();
      return scheme === undefined || scheme === 's3';
    }, 'names a remote folder this server does not read: only local paths and s3://bucket/prefix are read (gcs, sftp and smb are not)'),
  awsConnection: folderAwsConnection.optional(),
  sftpConnection: folderSftpConnection.optional(),
  filter: folderFilter.optional(),
  minAge: duration.optional(),
  maxAge: duration.optional(),
  minCount: z.number().int().min(0).optional(),
  maxCount: z.number().int().min(0).optional(),
  minSize: size.optional(),
  maxSize: size.optional(),
  recursive: z.boolean().optional(),
})
  .refine((check) => check.awsConnection === undefined || check.path.toLowerCase().startsWith('s3://'), {
    error: 'applies to an s3://bucket/prefix path only',
    path: ['awsConnection'],
  })
  .refine((check) => check.sftpConnection === undefined || (FOLDER_REMOTE_SCHEME.exec(check.path) === null && check.awsConnection === undefined), {
    error: 'applies to a path on the SFTP server (/data/backups, a glob allowed), not beside s3:// or awsConnection',
    path: ['sftpConnection'],
  })
  .refine((check) => check.recursive !== false || !check.path.toLowerCase().startsWith('s3://'), {
    error: 'cannot be false on s3://: a bucket listing holds every key below the prefix (narrow it with a glob such as s3://bucket/prefix/*)',
    path: ['recursive'],
  });

const prometheusCheck = z.strictObject({
  ...common,
  ...threshold,
  ...expressions,
  url: z.string().optional(),
  connection: z.string().optional(),
  query: z.string().min(1, 'This field is required'),
  results: z.number().int().min(0).optional(),
  threshold: z.strictObject({ min: z.number().optional(), max: z.number().optional() }).optional(),
  tls: clientTls.optional(),
});

/** Checks that talk to a service accept its URL or a stored connection that holds it. */
const hasUrlOrConnection = (spec: { url?: string | undefined; connection?: string | undefined }): boolean =>
  (spec.url ?? '') !== '' || (spec.connection ?? '') !== '';
const urlOrConnectionIssue = { message: 'Set url or connection', path: ['url'] };

const elasticsearchCheck = z
  .strictObject({
    ...common,
    ...threshold,
    ...expressions,
    url: z.string().optional(),
    connection: z.string().optional(),
    index: z
      .string()
      .min(1, 'This field is required')
      .refine((index) => !/[\s/\\?#]/.test(index) && index !== '.' && index !== '..', 'must be an index name or pattern (no spaces, /, \\, ? or #)'),
    /** A search body or a bare query clause, as JSON text or as an object; match_all when left out. */
    query: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    results: z.number().int().min(0).optional(),
    authentication: z.strictObject({ username: secretValue, password: secretValue }).optional(),
    // canary-checker inlines its connection's credentials beside url.
    username: referencedSecret.optional(),
    password: referencedSecret.optional(),
  })
  .refine(hasUrlOrConnection, urlOrConnectionIssue)
  // One of the two would be sent and the other ignored: refused rather than chosen silently.
  .refine((spec) => spec.authentication === undefined || (spec.username === undefined && spec.password === undefined), {
    message: 'give the credentials once: authentication, or username and password, not both',
    path: ['authentication'],
  });

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const labelMatchers = z.record(z.string(), z.string()).superRefine((matchers, context) => {
  for (const label of Object.keys(matchers)) {
    if (!LABEL_NAME.test(label)) context.addIssue({ code: 'custom', message: 'must be a label name (letters, digits and _)', path: [label] });
  }
});

const alertmanagerCheck = z
  .strictObject({
    ...common,
    ...threshold,
    ...expressions,
    url: z.string().optional(),
    connection: z.string().optional(),
    /** Alert names or regular expressions (anchored) matched against `alertname`; every alert when empty. */
    alerts: z.array(z.string()).optional(),
    ignore: z.array(z.string()).optional(),
    filters: labelMatchers.optional(),
    exclude_filters: labelMatchers.optional(),
  })
  .refine(hasUrlOrConnection, urlOrConnectionIssue);

const catalogSelector = z.strictObject({
  types: z.array(z.string()).optional(),
  name: z.string().optional(),
  statuses: z.array(z.string()).optional(),
  healths: z.array(z.string()).optional(),
  labels: labels.optional(),
});

/** canary-checker's selector is a list; one object is read as a list of one. An item counts when any selector matches it. */
const catalogCheck = z.strictObject({
  ...common,
  ...expressions,
  selector: z
    .union([catalogSelector, z.array(catalogSelector)])
    .default({})
    .transform((selector) => (Array.isArray(selector) ? selector : [selector])),
  minCount: z.number().int().min(0).default(1),
  maxCount: z.number().int().min(0).optional(),
});

/**
 * canary-checker's resource selector for a kubernetes check: `name` is a comma list of names or globs, each `!`-led one
 * an exclusion (`kube-*,!*lease`); labelSelector and fieldSelector are passed to the Kubernetes API as written.
 */
const kubernetesSelector = z.strictObject({
  name: z.string().optional(),
  labelSelector: z.string().optional(),
  fieldSelector: z.string().optional(),
});

/** A stored kubernetes connection, as canary-checker names one: `connection://namespace/name`. */
const kubernetesConnectionName = z.string().refine((value) => value.startsWith('connection://'), {
  error: 'must name a stored kubernetes connection (connection://namespace/name): this server reads no kubeconfig files or inline kubeconfigs',
});

/**
 * The health of Kubernetes resources of one kind (canary-checker's `kubernetes` check), read through a stored kubernetes
 * connection or, in a cluster, the server's own service account.
 */
const kubernetesCheck = z.strictObject({
  ...common,
  ...expressions,
  kind: z
    .string()
    .min(1, 'This field is required')
    .refine((kind) => kind !== 'Secret', 'Secrets are never listed: their content would reach the result and its expressions'),
  apiVersion: z.string().optional(),
  namespaceSelector: kubernetesSelector.optional(),
  resource: kubernetesSelector.optional(),
  ignore: z.array(z.string()).optional(),
  healthy: z.boolean().optional(),
  ready: z.boolean().optional(),
  connection: kubernetesConnectionName.optional(),
  kubeconfig: z.union([kubernetesConnectionName, z.strictObject({ connection: kubernetesConnectionName })]).optional(),
});

/** The check kinds that really execute, keyed as they appear in a canary spec. */
export const CHECK_SCHEMAS = {
  http: httpCheck,
  tcp: tcpCheck,
  dns: dnsCheck,
  icmp: icmpCheck,
  exec: execCheck,
  postgres: sqlCheck,
  mysql: sqlCheck,
  redis: redisCheck,
  mongodb: mongoCheck,
  folder: folderCheck,
  prometheus: prometheusCheck,
  catalog: catalogCheck,
  elasticsearch: elasticsearchCheck,
  // canary-checker's opensearch check is the elasticsearch one against OpenSearch's identical _search API.
  opensearch: elasticsearchCheck,
  alertmanager: alertmanagerCheck,
  kubernetes: kubernetesCheck,
} as const;

export type CheckType = keyof typeof CHECK_SCHEMAS;
export const CHECK_TYPES = Object.keys(CHECK_SCHEMAS) as CheckType[];
/** A check entry after validation, defaults applied and secrets opened: what a checker runs. */
export type CheckSpecOf<T extends CheckType> = z.output<(typeof CHECK_SCHEMAS)[T]>;
/** A check entry as a canary spec may write it: what a form builds. */
export type CheckSpecInput<T extends CheckType> = z.input<(typeof CHECK_SCHEMAS)[T]>;
export type HttpCheckSpec = CheckSpecOf<'http'>;
export type TcpCheckSpec = CheckSpecOf<'tcp'>;
export type DnsCheckSpec = CheckSpecOf<'dns'>;
export type IcmpCheckSpec = CheckSpecOf<'icmp'>;
export type ExecCheckSpec = CheckSpecOf<'exec'>;
export type SqlCheckSpec = CheckSpecOf<'postgres'>;
export type RedisCheckSpec = CheckSpecOf<'redis'>;
export type MongoCheckSpec = CheckSpecOf<'mongodb'>;
export type FolderCheckSpec = CheckSpecOf<'folder'>;
export type PrometheusCheckSpec = CheckSpecOf<'prometheus'>;
export type CatalogCheckSpec = CheckSpecOf<'catalog'>;
export type ElasticsearchCheckSpec = CheckSpecOf<'elasticsearch'>;
export type AlertmanagerCheckSpec = CheckSpecOf<'alertmanager'>;
export type KubernetesCheckSpec = CheckSpecOf<'kubernetes'>;

export function isSupportedCheckType(type: string): type is CheckType {
  return Object.hasOwn(CHECK_SCHEMAS, type);
}

/** Keys of a canary spec that configure the canary rather than list checks: those check-catalogue.ts lets run or keeps as inert. */
export const CANARY_SPEC_KEYS = ['schedule', 'interval', 'owner', 'severity', 'icon', 'labels', 'description', 'env', 'resultMode'] as const;

/**
 * canary-checker's result modes (`spec.resultMode`): `junit` runs the canary's checks together and reports them as one
 * combined result; empty (or left out) reports a result per check. canary-checker errors on any other value, so it is
 * refused at save here.
 */
export const RESULT_MODES = ['junit', ''] as const;
export type ResultMode = (typeof RESULT_MODES)[number];

/**
 * The canary-level keys as the server checks them; whether a schedule parses (cron, @every) is decided by the
 * server's scheduler, so here it is any text.
 */
const canaryLevelFields = {
  schedule: z.string().describe('@every 30s, @hourly, or a 5- or 6-field cron').optional(),
  interval: z.number().int().min(1).describe('seconds between runs, when no schedule is set').optional(),
  owner: z.string().optional(),
  severity: z.string().optional(),
  icon: z.string().optional(),
  labels: labels.optional(),
  description: z.string().optional(),
  /** Kept (secret-named values sealed) but read by no check: see check-catalogue.ts. */
  env: z.record(z.string(), z.unknown()).optional(),
  resultMode: z
    .enum(RESULT_MODES, {
      error: (issue) => `'${String(issue.input)}' is not a result mode: write junit (the checks reported as one combined result) or leave it out (a result per check)`,
    })
    .describe('junit: every check runs in one run and the canary reports one combined result; empty: a result per check')
    .optional(),
} satisfies Record<(typeof CANARY_SPEC_KEYS)[number], z.ZodType>;

/** The canary-level keys alone, for a reader that checks the check lists itself. */
export const canaryLevelSchema = z.object(canaryLevelFields);

function checkLists(): Record<CheckType, z.ZodOptional<z.ZodArray<(typeof CHECK_SCHEMAS)[CheckType]>>> {
  const lists: Partial<Record<CheckType, z.ZodOptional<z.ZodArray<(typeof CHECK_SCHEMAS)[CheckType]>>>> = {};
  for (const type of CHECK_TYPES) lists[type] = z.array(CHECK_SCHEMAS[type]).optional();
  return lists as Record<CheckType, z.ZodOptional<z.ZodArray<(typeof CHECK_SCHEMAS)[CheckType]>>>;
}

/**
 * A canary spec as its author writes it (the document the YAML editor holds): canary-level keys and a list of checks
 * per check type. Unknown keys are refused, as the server refuses them when the canary is saved.
 */
export const canarySpecSchema = z.strictObject({ ...canaryLevelFields, ...checkLists() }).describe('Canary spec');

/**
 * The canary spec as a JSON Schema (draft 2020-12) for editors that validate YAML or JSON as it is typed. It describes
 * what may be written, so defaults are not required and rules a schema cannot state (unique names per type, url or
 * connection) are left to the server.
 */
export function canarySpecJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(canarySpecSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
}
