import { randomUUID } from 'node:crypto';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import type pg from 'pg';

type Health = 'healthy' | 'unhealthy' | 'warning' | 'unknown';

interface DemoItem {
  id: string;
  type: string;
  name: string;
  parent: string | null;
  status: string;
  health: Health;
  ready: boolean;
  tags: Record<string, string>;
  labels: Record<string, string>;
  config: Record<string, unknown>;
  externalId: string;
  /** Minutes since the last scrape: above 60 the catalog flags the item stale. */
  scrapedMinutesAgo: number;
  createdDaysAgo: number;
  deletedDaysAgo: number | null;
  costPerMinute: number | null;
}

interface DemoChange {
  config: string;
  type: string;
  severity: string;
  source: string;
  summary: string;
  diff: string | null;
  details: Record<string, unknown> | null;
  patches: Record<string, unknown> | null;
  fingerprint: string | null;
  count: number;
  /** Minutes ago of the latest sighting; a folded change was first seen firstMinutesAgo. */
  minutesAgo: number;
  firstMinutesAgo: number;
}

interface Cluster {
  name: string;
  region: string;
  account: string;
  accountId: string;
  nodes: number;
  namespaces: Record<string, Array<[app: string, replicas: number]>>;
}

const CLUSTERS: Cluster[] = [
  {
    name: 'prod-eu',
    region: 'eu-west-1',
    account: 'shop-prod',
    accountId: '111122223333',
    nodes: 4,
    namespaces: {
      shop: [['checkout', 6], ['cart', 4], ['catalog', 4], ['frontend', 6], ['search', 3], ['recommendations', 2], ['inventory', 2], ['orders-worker', 3]],
      payments: [['payments-api', 4], ['ledger', 2], ['fraud-check', 2]],
      opsdeck: [['opsdeck', 1]],
      'kube-system': [['coredns', 2], ['metrics-server', 1]],
      monitoring: [['prometheus', 1], ['grafana', 1]],
    },
  },
  {
    name: 'staging-us',
    region: 'us-east-1',
    account: 'shop-staging',
    accountId: '444455556666',
    nodes: 2,
    namespaces: {
      shop: [['checkout', 1], ['cart', 1], ['catalog', 1], ['frontend', 1], ['search', 1], ['recommendations', 1], ['inventory', 1], ['orders-worker', 1]],
      payments: [['payments-api', 1], ['ledger', 1], ['fraud-check', 1]],
      monitoring: [['prometheus', 1], ['grafana', 1]],
    },
  },
];

const TEAMS: Record<string, string> = { shop: 'storefront', payments: 'payments', opsdeck: 'platform', 'kube-system': 'platform', monitoring: 'observability' };
const PORTS: Record<string, number> = { frontend: 3000, grafana: 3000, prometheus: 9090, coredns: 53, opsdeck: 8080 };

/** Images before and after the last rollout; the version in the middle of each pair is what is deployed now. */
function versions(app: string, index: number): [previous: string, current: string] {
  if (app === 'checkout') return ['2.13.2', '2.14.0'];
  return [`1.${4 + (index % 7)}.${index % 3}`, `1.${4 + (index % 7)}.${1 + (index % 3)}`];
}

/** A deterministic short hash, so pod and ReplicaSet names look like Kubernetes' and stay the same on every seed. */
function suffix(text: string, length: number): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let out = '';
  for (let i = 0; i < length; i += 1) {
    let hash = 2166136261;
    for (const char of `${text}#${i}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
    out += alphabet[hash % alphabet.length] ?? 'x';
  }
  return out;
}

function yamlLines(value: unknown, indent = ''): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((entry) => {
      const [first = '', ...rest] = yamlLines(entry, `${indent}  `);
      return [`${indent}- ${first.trimStart()}`, ...rest];
    });
  }
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, entry]) =>
      entry !== null && typeof entry === 'object' ? [`${indent}${key}:`, ...yamlLines(entry, `${indent}  `)] : [`${indent}${key}: ${String(entry)}`],
    );
  }
  return [`${indent}${String(value)}`];
}

/** A unified diff of two YAML renderings with three lines of context, as the scrapers store it. */
function unifiedDiff(name: string, before: unknown, after: unknown): string {
  const text = (value: unknown): string => `${yamlLines(value).join('\n')}\n`;
  return createTwoFilesPatch(`a/${name}`, `b/${name}`, text(before), text(after), undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY });
}

class Estate {
  readonly items: DemoItem[] = [];
  readonly changes: DemoChange[] = [];
  readonly relationships: Array<[from: string, to: string, relation: string]> = [];

  add(item: Omit<DemoItem, 'id' | 'scrapedMinutesAgo' | 'createdDaysAgo' | 'deletedDaysAgo' | 'costPerMinute' | 'externalId'> & Partial<DemoItem>): DemoItem {
    const full: DemoItem = {
      id: randomUUID(),
      scrapedMinutesAgo: 2 + (this.items.length % 9),
      createdDaysAgo: 40 + (this.items.length % 50),
      deletedDaysAgo: null,
      costPerMinute: null,
      externalId: `${item.type}/${item.name}`,
      ...item,
    };
    this.items.push(full);
    return full;
  }

  change(change: Partial<DemoChange> & Pick<DemoChange, 'config' | 'type' | 'summary' | 'minutesAgo'>): void {
    this.changes.push({
      severity: 'info',
      source: 'kubernetes',
      diff: null,
      details: null,
      patches: null,
      fingerprint: null,
      count: 1,
      firstMinutesAgo: change.minutesAgo,
      ...change,
    });
  }
}

function deploymentSpec(app: string, namespace: string, replicas: number, image: string, memory: string): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: app, namespace, labels: { app, team: TEAMS[namespace] ?? 'platform' }, annotations: { 'deployment.kubernetes.io/revision': '7' } },
    spec: {
      replicas,
      selector: { matchLabels: { app } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app } },
        spec: {
          containers: [
            {
              name: app,
              image,
              ports: [{ containerPort: PORTS[app] ?? 8080, protocol: 'TCP' }],
              resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '1', memory } },
              readinessProbe: { httpGet: { path: '/healthz', port: PORTS[app] ?? 8080 }, periodSeconds: 10 },
            },
          ],
        },
      },
    },
    status: { replicas, readyReplicas: replicas, updatedReplicas: replicas, availableReplicas: replicas },
  };
}

function buildKubernetes(estate: Estate): void {
  let appIndex = 0;
  for (const cluster of CLUSTERS) {
    const base = { cluster: cluster.name, account: cluster.account, region: cluster.region };
    const root = estate.add({
      type: 'Kubernetes::Cluster',
      name: cluster.name,
      parent: null,
      status: 'Running',
      health: 'healthy',
      ready: true,
      tags: base,
      labels: { env: cluster.name.startsWith('prod') ? 'production' : 'staging', provider: 'eks' },
      config: { kind: 'Cluster', name: cluster.name, version: 'v1.29.4-eks-036c24b', endpoint: `https://${suffix(cluster.name, 12).toUpperCase()}.gr7.${cluster.region}.eks.amazonaws.com`, platformVersion: 'eks.8' },
      externalId: `arn:aws:eks:${cluster.region}:${cluster.accountId}:cluster/${cluster.name}`,
    });
    const nodes: DemoItem[] = [];
    for (let n = 0; n < cluster.nodes; n += 1) {
      const ip = `10.${cluster.name.startsWith('prod') ? 0 : 8}.${1 + n}.${23 + n * 11}`;
      const nodeName = `ip-${ip.replaceAll('.', '-')}.${cluster.region}.compute.internal`;
      const staleNode = !cluster.name.startsWith('prod') && n === 1;
      const node = estate.add({
        type: 'Kubernetes::Node',
        name: nodeName,
        parent: root.id,
        status: staleNode ? 'NotReady' : 'Ready',
        health: staleNode ? 'unknown' : n === 2 ? 'warning' : 'healthy',
        ready: !staleNode,
        tags: base,
        labels: { 'node.kubernetes.io/instance-type': 'm6i.xlarge', 'topology.kubernetes.io/zone': `${cluster.region}${'abc'[n % 3] ?? 'a'}`, 'eks.amazonaws.com/nodegroup': 'general' },
        config: {
          apiVersion: 'v1',
          kind: 'Node',
          metadata: { name: nodeName, labels: { 'kubernetes.io/os': 'linux', 'node.kubernetes.io/instance-type': 'm6i.xlarge' } },
          spec: { providerID: `aws:///${cluster.region}a/i-0${suffix(nodeName, 16)}` },
          status: {
            capacity: { cpu: '4', memory: '16069876Ki', pods: '58' },
            conditions: [
              { type: 'MemoryPressure', status: 'False' },
              { type: 'DiskPressure', status: n === 2 ? 'True' : 'False', message: n === 2 ? 'ephemeral-storage usage 87%' : 'kubelet has no disk pressure' },
              { type: 'Ready', status: staleNode ? 'Unknown' : 'True' },
            ],
            nodeInfo: { kubeletVersion: 'v1.29.3-eks-ae9a62a', containerRuntimeVersion: 'containerd://1.7.11', osImage: 'Amazon Linux 2' },
          },
        },
        // The staging node stopped reporting three days ago: its data is stale.
        scrapedMinutesAgo: staleNode ? 3 * 1440 : 3,
      });
      nodes.push(node);
      estate.add({
        type: 'AWS::EC2::Instance',
        name: nodeName,
        parent: null,
        status: 'running',
        health: 'healthy',
        ready: true,
        tags: base,
        labels: { 'eks:cluster-name': cluster.name, 'eks:nodegroup-name': 'general', Name: `${cluster.name}-general` },
        config: {
          InstanceId: `i-0${suffix(nodeName, 16)}`,
          InstanceType: 'm6i.xlarge',
          ImageId: 'ami-0c2b0d3fb02824d92',
          PrivateIpAddress: ip,
          Placement: { AvailabilityZone: `${cluster.region}a`, Tenancy: 'default' },
          State: { Code: 16, Name: 'running' },
          SubnetId: `subnet-0${suffix(`${cluster.name}-subnet`, 16)}`,
          VpcId: `vpc-0${suffix(cluster.name, 16)}`,
          IamInstanceProfile: { Arn: `arn:aws:iam::${cluster.accountId}:instance-profile/${cluster.name}-node` },
          SecurityGroups: [{ GroupId: `sg-0${suffix(`${cluster.name}-nodes`, 16)}`, GroupName: `${cluster.name}-nodes` }],
          LaunchTime: '2026-09-14T08:12:44.000Z',
        },
        externalId: `arn:aws:ec2:${cluster.region}:${cluster.accountId}:instance/i-0${suffix(nodeName, 16)}`,
        costPerMinute: 0.0032,
      });
    }
    for (const [namespace, apps] of Object.entries(cluster.namespaces)) {
      const tags = { ...base, namespace };
      const ns = estate.add({
        type: 'Kubernetes::Namespace',
        name: namespace,
        parent: root.id,
        status: 'Active',
        health: 'healthy',
        ready: true,
        tags,
        labels: { 'kubernetes.io/metadata.name': namespace, team: TEAMS[namespace] ?? 'platform' },
        config: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { 'kubernetes.io/metadata.name': namespace } }, status: { phase: 'Active' } },
      });
      estate.add({
        type: 'Kubernetes::ConfigMap',
        name: 'kube-root-ca.crt',
        parent: ns.id,
        status: 'Active',
        health: 'healthy',
        ready: true,
        tags,
        labels: {},
        config: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kube-root-ca.crt', namespace }, data: { 'ca.crt': '-----BEGIN CERTIFICATE-----\nMIIC/jCCAeagAwIBAgIBADANBgkqhkiG9w0BAQsFADAVMRMwEQYDVQQDEwprdWJl\n-----END CERTIFICATE-----\n' } },
      });
      for (const [app, replicas] of apps) {
        appIndex += 1;
        buildApp(estate, { cluster, namespace: ns, tags, app, replicas, appIndex, nodes });
      }
    }
  }
}

interface AppContext {
  cluster: Cluster;
  namespace: DemoItem;
  tags: Record<string, string>;
  app: string;
  replicas: number;
  appIndex: number;
  nodes: DemoItem[];
}

function buildApp(estate: Estate, ctx: AppContext): void {
  const { cluster, namespace, tags, app, replicas, appIndex, nodes } = ctx;
  const ns = tags.namespace ?? 'default';
  const team = TEAMS[ns] ?? 'platform';
  const labels = { app, team, env: cluster.name.startsWith('prod') ? 'production' : 'staging' };
  const [previous, current] = versions(app, appIndex);
  const image = (version: string): string => `registry.shop.local/${ns}/${app}:${version}`;
  const memory = app === 'checkout' ? '512Mi' : '1Gi';
  const prod = cluster.name.startsWith('prod');
  const unhealthy = prod && app === 'checkout';
  const degraded = prod && app === 'ledger';

  const oldSpec = deploymentSpec(app, ns, replicas, image(previous), memory);
  const newSpec = deploymentSpec(app, ns, replicas, image(current), memory);
  const deployment = estate.add({
    type: 'Kubernetes::Deployment',
    name: app,
    parent: namespace.id,
    status: unhealthy ? 'Progressing' : 'Available',
    health: unhealthy ? 'unhealthy' : degraded ? 'warning' : 'healthy',
    ready: !unhealthy,
    tags,
    labels,
    config: unhealthy ? { ...newSpec, status: { replicas, readyReplicas: replicas - 2, updatedReplicas: replicas, unavailableReplicas: 2 } } : newSpec,
  });
  const rolloutMinutes = unhealthy ? 200 : 60 * (6 + ((appIndex * 37) % 300));
  estate.change({
    config: deployment.id,
    type: 'diff',
    severity: unhealthy ? 'medium' : 'info',
    summary: `image ${image(previous)} → ${image(current)}`,
    diff: unifiedDiff(`${ns}/${app}.yaml`, oldSpec.spec, newSpec.spec),
    details: { revision: 7, previousRevision: 6, rolloutStrategy: 'RollingUpdate', triggeredBy: 'argocd' },
    patches: { spec: { template: { spec: { containers: [{ name: app, image: image(current) }] } } } },
    minutesAgo: rolloutMinutes,
    source: 'kubernetes/argocd',
  });
  if (appIndex % 3 === 0) {
    const scaled = deploymentSpec(app, ns, replicas + 1, image(previous), memory);
    estate.change({
      config: deployment.id,
      type: 'diff',
      summary: `replicas ${replicas + 1} → ${replicas}`,
      diff: unifiedDiff(`${ns}/${app}.yaml`, scaled.spec, oldSpec.spec),
      details: { fieldManager: 'kube-controller-manager', reason: 'HorizontalPodAutoscaler' },
      patches: { spec: { replicas } },
      minutesAgo: 60 * (50 + ((appIndex * 53) % 250)),
    });
  }

  const rsHashes = [suffix(`${cluster.name}/${app}/${previous}`, 10), suffix(`${cluster.name}/${app}/${current}`, 10)];
  const replicaSets = rsHashes.map((hash, index) =>
    estate.add({
      type: 'Kubernetes::ReplicaSet',
      name: `${app}-${hash}`,
      parent: deployment.id,
      status: index === 1 ? 'Running' : 'Scaled down',
      health: index === 1 && unhealthy ? 'warning' : 'healthy',
      ready: true,
      tags,
      labels: { ...labels, 'pod-template-hash': hash },
      config: {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: `${app}-${hash}`, namespace: ns, ownerReferences: [{ kind: 'Deployment', name: app }] },
        spec: { replicas: index === 1 ? replicas : 0, template: { spec: { containers: [{ name: app, image: image(index === 1 ? current : previous) }] } } },
        status: { replicas: index === 1 ? replicas : 0, readyReplicas: index === 1 ? replicas : 0 },
      },
    }),
  );
  const [oldRs, newRs] = replicaSets;
  if (oldRs === undefined || newRs === undefined) throw new Error('every deployment has two ReplicaSets');
  estate.change({
    config: newRs.id,
    type: 'ScalingReplicaSet',
    summary: `Scaled up replica set ${newRs.name} to ${replicas}`,
    details: { reason: 'ScalingReplicaSet', from: 0, to: replicas },
    minutesAgo: rolloutMinutes - 1,
  });
  estate.change({
    config: oldRs.id,
    type: 'ScalingReplicaSet',
    summary: `Scaled down replica set ${oldRs.name} to 0`,
    details: { reason: 'ScalingReplicaSet', from: replicas, to: 0 },
    minutesAgo: rolloutMinutes - 3,
  });

  const podsOfService: DemoItem[] = [];
  for (let p = 0; p < replicas; p += 1) {
    const name = `${newRs.name}-${suffix(`${newRs.name}/${p}`, 5)}`;
    const crashing = unhealthy && p < 2;
    const node = nodes[(appIndex + p) % nodes.length];
    const pod = estate.add({
      type: 'Kubernetes::Pod',
      name,
      parent: newRs.id,
      status: crashing ? 'CrashLoopBackOff' : 'Running',
      health: crashing ? 'unhealthy' : 'healthy',
      ready: !crashing,
      tags,
      labels: { app, 'pod-template-hash': rsHashes[1] ?? '' },
      config: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: ns, labels: { app } },
        spec: { nodeName: node?.name, containers: [{ name: app, image: image(current), resources: { limits: { memory } } }] },
        status: {
          phase: 'Running',
          podIP: `10.${prod ? 0 : 8}.${100 + (appIndex % 50)}.${10 + p}`,
          conditions: [{ type: 'Ready', status: crashing ? 'False' : 'True' }],
          containerStatuses: [
            {
              name: app,
              ready: !crashing,
              restartCount: crashing ? 4 + p : 0,
              image: image(current),
              state: crashing ? { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' } } : { running: { startedAt: '2026-11-23T07:40:11Z' } },
              lastState: crashing ? { terminated: { reason: 'OOMKilled', exitCode: 137 } } : {},
            },
          ],
        },
      },
    });
    podsOfService.push(pod);
    if (node !== undefined) estate.relationships.push([pod.id, node.id, 'PodNode']);
    estate.change({ config: pod.id, type: 'Pulled', summary: `Successfully pulled image "${image(current)}"`, details: { reason: 'Pulled', kind: 'Normal' }, minutesAgo: rolloutMinutes - 2 });
    if (crashing) {
      estate.change({
        config: pod.id,
        type: 'BackOff',
        severity: 'high',
        summary: `Back-off restarting failed container ${app}`,
        details: { reason: 'BackOff', kind: 'Warning', message: 'container was OOMKilled' },
        fingerprint: `BackOff/${name}`,
        count: 14 + p * 5,
        minutesAgo: 4 + p,
        firstMinutesAgo: 170,
      });
    }
  }
  // The pods of the previous rollout: gone, but kept a few days so the catalog can show them greyed.
  if (prod && appIndex % 4 === 1) {
    const name = `${oldRs.name}-${suffix(`${oldRs.name}/gone`, 5)}`;
    const gone = estate.add({
      type: 'Kubernetes::Pod',
      name,
      parent: oldRs.id,
      status: 'Terminated',
      health: 'unknown',
      ready: false,
      tags,
      labels: { app, 'pod-template-hash': rsHashes[0] ?? '' },
      config: { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns }, status: { phase: 'Succeeded', reason: 'Terminated' } },
      deletedDaysAgo: Math.max(0, Math.floor(rolloutMinutes / 1440)),
      scrapedMinutesAgo: rolloutMinutes,
    });
    estate.change({ config: gone.id, type: 'Killing', summary: `Stopping container ${app}`, details: { reason: 'Killing', kind: 'Normal' }, minutesAgo: rolloutMinutes - 3 });
  }

  const service = estate.add({
    type: 'Kubernetes::Service',
    name: app,
    parent: namespace.id,
    status: 'Active',
    health: 'healthy',
    ready: true,
    tags,
    labels,
    config: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: app, namespace: ns },
      spec: { type: 'ClusterIP', clusterIP: `172.20.${appIndex}.${10 + (appIndex % 200)}`, selector: { app }, ports: [{ port: 80, targetPort: PORTS[app] ?? 8080, protocol: 'TCP' }] },
    },
  });
  for (const pod of podsOfService) estate.relationships.push([service.id, pod.id, 'ServicePod']);

  const settings = { LOG_LEVEL: 'info', HTTP_PORT: String(PORTS[app] ?? 8080), DB_POOL_SIZE: app === 'checkout' ? '50' : '20', FEATURE_NEW_PRICING: 'false' };
  const configMap = estate.add({
    type: 'Kubernetes::ConfigMap',
    name: `${app}-config`,
    parent: namespace.id,
    status: 'Active',
    health: 'healthy',
    ready: true,
    tags,
    labels,
    config: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${app}-config`, namespace: ns }, data: settings },
  });
  estate.relationships.push([deployment.id, configMap.id, 'DeploymentConfigMap']);
  if (appIndex % 2 === 0) {
    const before = { ...settings, LOG_LEVEL: 'debug' };
    estate.change({
      config: configMap.id,
      type: 'diff',
      summary: 'data.LOG_LEVEL debug → info',
      diff: unifiedDiff(`${ns}/${app}-config.yaml`, { data: before }, { data: settings }),
      patches: { data: { LOG_LEVEL: 'info' } },
      minutesAgo: 60 * (20 + ((appIndex * 71) % 280)),
    });
  }
}

interface AwsResource {
  type: string;
  name: string;
  region: string;
  account: string;
  accountId: string;
  status: string;
  health: Health;
  config: Record<string, unknown>;
  arn: string;
  costPerMinute: number;
  labels?: Record<string, string>;
  scrapedMinutesAgo?: number;
  deletedDaysAgo?: number;
}

function awsResources(): AwsResource[] {
  const prod = { region: 'eu-west-1', account: 'shop-prod', accountId: '111122223333' };
  const staging = { region: 'us-east-1', account: 'shop-staging', accountId: '444455556666' };
  const rds = (name: string, at: typeof prod, engine: string, size: string, health: Health, cost: number): AwsResource => ({
    type: 'AWS::RDS::DBInstance',
    name,
    ...at,
    status: health === 'healthy' ? 'available' : 'storage-full',
    health,
    arn: `arn:aws:rds:${at.region}:${at.accountId}:db:${name}`,
    costPerMinute: cost,
    config: {
      DBInstanceIdentifier: name,
      DBInstanceClass: size,
      Engine: engine,
      EngineVersion: engine === 'postgres' ? '15.6' : '8.0.36',
      DBInstanceStatus: health === 'healthy' ? 'available' : 'storage-full',
      AllocatedStorage: 500,
      MultiAZ: at === prod,
      StorageEncrypted: true,
      Endpoint: { Address: `${name}.c9akciq32.${at.region}.rds.amazonaws.com`, Port: engine === 'postgres' ? 5432 : 3306 },
      BackupRetentionPeriod: 7,
      PerformanceInsightsEnabled: at === prod,
    },
  });
  const bucket = (name: string, at: typeof prod, publicRead: boolean, cost: number, deletedDaysAgo?: number): AwsResource => ({
    type: 'AWS::S3::Bucket',
    name,
    ...at,
    status: 'available',
    health: publicRead ? 'warning' : 'healthy',
    arn: `arn:aws:s3:::${name}`,
    costPerMinute: cost,
    ...(deletedDaysAgo === undefined ? {} : { deletedDaysAgo }),
    config: {
      Name: name,
      CreationDate: '2025-03-02T10:15:00.000Z',
      Versioning: { Status: 'Enabled' },
      PublicAccessBlockConfiguration: { BlockPublicAcls: !publicRead, BlockPublicPolicy: !publicRead, IgnorePublicAcls: !publicRead, RestrictPublicBuckets: !publicRead },
      ServerSideEncryptionConfiguration: { Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms' } }] },
      LifecycleConfiguration: { Rules: [{ ID: 'expire-noncurrent', Status: 'Enabled', NoncurrentVersionExpiration: { NoncurrentDays: 30 } }] },
    },
  });
  const role = (name: string, at: typeof prod, service: string, policies: string[]): AwsResource => ({
    type: 'AWS::IAM::Role',
    name,
    ...at,
    region: 'global',
    status: 'active',
    health: 'healthy',
    arn: `arn:aws:iam::${at.accountId}:role/${name}`,
    costPerMinute: 0,
    config: {
      RoleName: name,
      Arn: `arn:aws:iam::${at.accountId}:role/${name}`,
      AssumeRolePolicyDocument: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: service }, Action: 'sts:AssumeRole' }] },
      AttachedManagedPolicies: policies.map((policy) => ({ PolicyName: policy, PolicyArn: `arn:aws:iam::aws:policy/${policy}` })),
      MaxSessionDuration: 3600,
    },
  });
  const instance = (name: string, at: typeof prod, type: string, cost: number, extra: Partial<AwsResource> = {}): AwsResource => ({
    type: 'AWS::EC2::Instance',
    name,
    ...at,
    status: 'running',
    health: 'healthy',
    arn: `arn:aws:ec2:${at.region}:${at.accountId}:instance/i-0${suffix(name, 16)}`,
    costPerMinute: cost,
    labels: { Name: name },
    config: {
      InstanceId: `i-0${suffix(name, 16)}`,
      InstanceType: type,
      ImageId: 'ami-0a1b2c3d4e5f67890',
      State: { Code: 16, Name: 'running' },
      Placement: { AvailabilityZone: `${at.region}b` },
      Monitoring: { State: 'enabled' },
      MetadataOptions: { HttpTokens: name.includes('legacy') ? 'optional' : 'required' },
    },
    ...extra,
  });
  return [
    rds('orders-db', prod, 'postgres', 'db.r6g.xlarge', 'healthy', 0.0104),
    rds('payments-db', prod, 'postgres', 'db.r6g.large', 'warning', 0.0052),
    rds('opsdeck-db', prod, 'postgres', 'db.t4g.medium', 'healthy', 0.0011),
    rds('legacy-reports', staging, 'mysql', 'db.m5.large', 'healthy', 0.0029),
    rds('orders-db-staging', staging, 'postgres', 'db.t4g.large', 'healthy', 0.0022),
    bucket('shop-assets-prod', prod, false, 0.0009),
    bucket('shop-static-public', prod, true, 0.0004),
    bucket('opsdeck-backups', prod, false, 0.0013),
    bucket('payments-exports', prod, false, 0.0002),
    bucket('shop-assets-staging', staging, false, 0.0001),
    bucket('tmp-migration-2026', staging, false, 0.0001, 4),
    bucket('cur-reports-111122223333', prod, false, 0.0001),
    role('prod-eu-node', prod, 'ec2.amazonaws.com', ['AmazonEKSWorkerNodePolicy', 'AmazonEC2ContainerRegistryReadOnly']),
    role('checkout-irsa', prod, 'eks.amazonaws.com', ['AmazonSQSFullAccess']),
    role('payments-irsa', prod, 'eks.amazonaws.com', ['SecretsManagerReadWrite']),
    role('opsdeck-scraper', prod, 'eks.amazonaws.com', ['ReadOnlyAccess']),
    role('ci-deployer', prod, 'codebuild.amazonaws.com', ['AdministratorAccess']),
    role('staging-us-node', staging, 'ec2.amazonaws.com', ['AmazonEKSWorkerNodePolicy']),
    role('legacy-batch', staging, 'ec2.amazonaws.com', ['AmazonS3FullAccess']),
    instance('bastion-prod', prod, 't3.small', 0.0003),
    instance('reports-legacy', staging, 'm5.large', 0.0016, { health: 'warning' }),
    instance('batch-worker-old', staging, 'c5.xlarge', 0.0028, { status: 'stopped', health: 'unknown', scrapedMinutesAgo: 5 * 1440 }),
    instance('spot-ci-runner', prod, 'c6i.2xlarge', 0.0057, { status: 'terminated', health: 'unknown', deletedDaysAgo: 2 }),
    {
      type: 'AWS::Lambda::Function',
      name: 'orders-export',
      ...prod,
      status: 'Active',
      health: 'healthy',
      arn: `arn:aws:lambda:${prod.region}:${prod.accountId}:function:orders-export`,
      costPerMinute: 0.0001,
      config: { FunctionName: 'orders-export', Runtime: 'nodejs20.x', Handler: 'index.handler', MemorySize: 512, Timeout: 60, Architectures: ['arm64'] },
    },
    {
      type: 'AWS::SQS::Queue',
      name: 'orders-events',
      ...prod,
      status: 'Active',
      health: 'healthy',
      arn: `arn:aws:sqs:${prod.region}:${prod.accountId}:orders-events`,
      costPerMinute: 0.0001,
      config: { QueueName: 'orders-events', VisibilityTimeout: 30, MessageRetentionPeriod: 345600, RedrivePolicy: { maxReceiveCount: 5 } },
    },
  ];
}

function buildAws(estate: Estate): void {
  for (const resource of awsResources()) {
    estate.add({
      type: resource.type,
      name: resource.name,
      parent: null,
      status: resource.status,
      health: resource.health,
      ready: resource.health === 'healthy',
      tags: { account: resource.account, region: resource.region },
      labels: { team: resource.name.startsWith('payments') ? 'payments' : resource.name.startsWith('opsdeck') ? 'platform' : 'storefront', ...(resource.labels ?? {}) },
      config: resource.config,
      externalId: resource.arn,
      costPerMinute: resource.costPerMinute,
      ...(resource.scrapedMinutesAgo === undefined ? {} : { scrapedMinutesAgo: resource.scrapedMinutesAgo }),
      ...(resource.deletedDaysAgo === undefined ? {} : { deletedDaysAgo: resource.deletedDaysAgo, scrapedMinutesAgo: resource.deletedDaysAgo * 1440 }),
    });
  }
}

function find(estate: Estate, type: string, name: string, cluster = 'prod-eu'): DemoItem {
  const item = estate.items.find((candidate) => candidate.type === type && candidate.name === name && (candidate.tags.cluster ?? cluster) === cluster);
  if (item === undefined) throw new Error(`demo catalog has no ${type} ${name}`);
  return item;
}

/** The edges and changes between areas of the estate: what instances talk to, and the AWS-side history. */
function buildCrossLinks(estate: Estate): void {
  const orders = find(estate, 'AWS::RDS::DBInstance', 'orders-db');
  const payments = find(estate, 'AWS::RDS::DBInstance', 'payments-db');
  const legacy = find(estate, 'AWS::RDS::DBInstance', 'legacy-reports');
  estate.relationships.push([find(estate, 'AWS::EC2::Instance', 'bastion-prod').id, orders.id, 'InstanceDatabase']);
  estate.relationships.push([find(estate, 'AWS::EC2::Instance', 'bastion-prod').id, payments.id, 'InstanceDatabase']);
  estate.relationships.push([find(estate, 'AWS::EC2::Instance', 'reports-legacy').id, legacy.id, 'InstanceDatabase']);
  estate.relationships.push([find(estate, 'Kubernetes::Deployment', 'checkout').id, orders.id, 'DeploymentDatabase']);
  estate.relationships.push([find(estate, 'Kubernetes::Deployment', 'payments-api').id, payments.id, 'DeploymentDatabase']);
  estate.relationships.push([find(estate, 'Kubernetes::Deployment', 'opsdeck').id, find(estate, 'AWS::RDS::DBInstance', 'opsdeck-db').id, 'DeploymentDatabase']);
  estate.relationships.push([find(estate, 'Kubernetes::Deployment', 'checkout').id, find(estate, 'AWS::IAM::Role', 'checkout-irsa').id, 'ServiceAccountRole']);
  estate.relationships.push([find(estate, 'Kubernetes::Deployment', 'orders-worker').id, find(estate, 'AWS::SQS::Queue', 'orders-events').id, 'Consumes']);
  estate.relationships.push([find(estate, 'AWS::Lambda::Function', 'orders-export').id, orders.id, 'Reads']);
  for (const item of estate.items) {
    if (item.type === 'AWS::EC2::Instance' && item.tags.region !== undefined) {
      const node = estate.items.find((candidate) => candidate.type === 'Kubernetes::Node' && candidate.name === item.name);
      if (node !== undefined) estate.relationships.push([node.id, item.id, 'NodeInstance']);
    }
  }

  const publicBucket = find(estate, 'AWS::S3::Bucket', 'shop-static-public');
  const blocked = { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true };
  const opened = { BlockPublicAcls: false, BlockPublicPolicy: false, IgnorePublicAcls: false, RestrictPublicBuckets: false };
  estate.change({
    config: publicBucket.id,
    type: 'PutPublicAccessBlock',
    severity: 'high',
    source: 'AWS::CloudTrail',
    summary: 'Public access block disabled by terraform-ci',
    diff: unifiedDiff('shop-static-public.json', { PublicAccessBlockConfiguration: blocked }, { PublicAccessBlockConfiguration: opened }),
    details: { eventName: 'PutPublicAccessBlock', userIdentity: { arn: 'arn:aws:sts::111122223333:assumed-role/ci-deployer/terraform-ci' }, sourceIPAddress: '10.0.42.7' },
    patches: { PublicAccessBlockConfiguration: opened },
    minutesAgo: 21 * 60,
  });
  const paymentsConfig = payments.config;
  estate.change({
    config: payments.id,
    type: 'diff',
    severity: 'medium',
    source: 'AWS::RDS',
    summary: 'AllocatedStorage 400 → 500',
    diff: unifiedDiff('payments-db.json', { ...paymentsConfig, AllocatedStorage: 400 }, paymentsConfig),
    patches: { AllocatedStorage: 500 },
    minutesAgo: 5 * 1440,
  });
  estate.change({
    config: payments.id,
    type: 'StorageFull',
    severity: 'warning',
    source: 'AWS::RDS',
    summary: 'Free storage space below 10%',
    details: { EventCategories: ['low storage'], SourceType: 'db-instance' },
    fingerprint: 'rds-event/low-storage',
    count: 9,
    minutesAgo: 35,
    firstMinutesAgo: 6 * 1440,
  });
  const ciRole = find(estate, 'AWS::IAM::Role', 'ci-deployer');
  estate.change({
    config: ciRole.id,
    type: 'AttachRolePolicy',
    severity: 'critical',
    source: 'AWS::CloudTrail',
    summary: 'AdministratorAccess attached to ci-deployer',
    diff: unifiedDiff('ci-deployer.json', { AttachedManagedPolicies: [{ PolicyName: 'PowerUserAccess' }] }, { AttachedManagedPolicies: [{ PolicyName: 'AdministratorAccess' }] }),
    details: { eventName: 'AttachRolePolicy', requestParameters: { roleName: 'ci-deployer', policyArn: 'arn:aws:iam::aws:policy/AdministratorAccess' } },
    minutesAgo: 9 * 1440,
  });
  const legacyInstance = find(estate, 'AWS::EC2::Instance', 'reports-legacy');
  estate.change({
    config: legacyInstance.id,
    type: 'diff',
    source: 'AWS::EC2',
    summary: 'InstanceType m5.xlarge → m5.large',
    diff: unifiedDiff('reports-legacy.json', { ...legacyInstance.config, InstanceType: 'm5.xlarge' }, legacyInstance.config),
    details: { eventName: 'ModifyInstanceAttribute' },
    minutesAgo: 12 * 1440,
  });
  for (const item of estate.items.filter((candidate) => candidate.type === 'Kubernetes::Node' && candidate.health === 'warning')) {
    estate.change({
      config: item.id,
      type: 'NodeHasDiskPressure',
      severity: 'warning',
      summary: `Node ${item.name} status is now: NodeHasDiskPressure`,
      details: { reason: 'NodeHasDiskPressure', kind: 'Warning' },
      fingerprint: `NodeHasDiskPressure/${item.name}`,
      count: 6,
      minutesAgo: 90,
      firstMinutesAgo: 3 * 1440,
    });
  }
}

interface DemoInsight {
  config: string;
  analyzer: string;
  type: string;
  severity: string;
  status: 'open' | 'resolved' | 'silenced';
  summary: string;
  message: string;
  firstHoursAgo: number;
}

/** Findings of every analysis type and every severity, on the items an analyzer would flag. */
function insights(estate: Estate): DemoInsight[] {
  const on = (type: string, name: string, cluster?: string): string => find(estate, type, name, cluster).id;
  const checkoutPod = estate.items.find((item) => item.type === 'Kubernetes::Pod' && item.health === 'unhealthy');
  if (checkoutPod === undefined) throw new Error('demo catalog has no crashing pod');
  return [
    { config: on('AWS::EC2::Instance', 'reports-legacy'), analyzer: 'ec2-rightsizing', type: 'cost', severity: 'low', status: 'open', summary: 'Instance underutilised', message: 'CPU below 5% for 14 days: m5.large could be t3.medium, saving $41.61 a month.', firstHoursAgo: 300 },
    { config: on('AWS::EC2::Instance', 'batch-worker-old'), analyzer: 'idle-resources', type: 'cost', severity: 'info', status: 'silenced', summary: 'Stopped instance with attached volumes', message: 'Stopped for 5 days; 2 EBS volumes (500 GiB) still billed.', firstHoursAgo: 120 },
    { config: checkoutPod.id, analyzer: 'crashloop', type: 'availability', severity: 'critical', status: 'open', summary: 'Container in CrashLoopBackOff', message: 'checkout restarted 4 times in 1h: last state OOMKilled (exit code 137).', firstHoursAgo: 3 },
    { config: on('Kubernetes::Deployment', 'checkout'), analyzer: 'memory-limit-low', type: 'performance', severity: 'high', status: 'open', summary: 'Memory limit below working set', message: 'Working set peaks at 498Mi against a 512Mi limit since 2.14.0.', firstHoursAgo: 3 },
    { config: on('AWS::S3::Bucket', 'shop-static-public'), analyzer: 's3-public-access', type: 'security', severity: 'blocker', status: 'open', summary: 'Bucket allows public access', message: 'Public access block is disabled and the bucket policy grants s3:GetObject to *.', firstHoursAgo: 21 },
    { config: on('AWS::IAM::Role', 'ci-deployer'), analyzer: 'iam-admin-access', type: 'security', severity: 'critical', status: 'open', summary: 'Role has AdministratorAccess', message: 'ci-deployer can be assumed by CodeBuild and holds AdministratorAccess.', firstHoursAgo: 216 },
    { config: on('AWS::SQS::Queue', 'orders-events'), analyzer: 'sqs-dlq-missing', type: 'integration', severity: 'medium', status: 'open', summary: 'Dead-letter queue missing', message: 'RedrivePolicy names no deadLetterTargetArn: poison messages are retried forever.', firstHoursAgo: 400 },
    { config: on('AWS::RDS::DBInstance', 'legacy-reports'), analyzer: 'rds-encryption', type: 'compliance', severity: 'high', status: 'resolved', summary: 'Snapshots not encrypted', message: 'Automated snapshots were unencrypted until the KMS key was set.', firstHoursAgo: 320 },
    { config: on('AWS::S3::Bucket', 'payments-exports'), analyzer: 'pci-logging', type: 'compliance', severity: 'warning', status: 'open', summary: 'Access logging disabled', message: 'PCI DSS 10.2 requires access logs on buckets holding cardholder exports.', firstHoursAgo: 150 },
    { config: on('AWS::RDS::DBInstance', 'legacy-reports'), analyzer: 'engine-eol', type: 'technical_debt', severity: 'medium', status: 'open', summary: 'MySQL 8.0 reaches end of standard support', message: 'Upgrade to 8.4 before April 2026 to avoid extended support charges.', firstHoursAgo: 330 },
    { config: on('Kubernetes::Cluster', 'staging-us', 'staging-us'), analyzer: 'k8s-version', type: 'technical_debt', severity: 'low', status: 'open', summary: 'Cluster two minor versions behind', message: 'v1.29 leaves standard support soon; v1.31 is current.', firstHoursAgo: 240 },
    { config: on('AWS::RDS::DBInstance', 'payments-db'), analyzer: 'rds-storage', type: 'reliability', severity: 'high', status: 'open', summary: 'Free storage below 10%', message: 'At the current growth the volume fills in 3 days.', firstHoursAgo: 140 },
    { config: on('Kubernetes::Deployment', 'ledger'), analyzer: 'single-replica', type: 'reliability', severity: 'medium', status: 'open', summary: 'No PodDisruptionBudget', message: 'A node drain can take every ledger pod at once.', firstHoursAgo: 100 },
    { config: on('Kubernetes::Deployment', 'frontend'), analyzer: 'hpa-recommendation', type: 'recommendation', severity: 'info', status: 'open', summary: 'Add a HorizontalPodAutoscaler', message: 'Traffic varies 6x over a day; an HPA between 3 and 8 replicas would save 30% of its cost.', firstHoursAgo: 60 },
    { config: on('AWS::EC2::Instance', 'bastion-prod'), analyzer: 'ssm-recommendation', type: 'recommendation', severity: 'low', status: 'resolved', summary: 'Replace the bastion with Session Manager', message: 'SSM Session Manager removes the open SSH port.', firstHoursAgo: 310 },
    { config: on('Kubernetes::Node', estate.items.find((item) => item.type === 'Kubernetes::Node' && item.health === 'warning')?.name ?? ''), analyzer: 'node-disk', type: 'other', severity: 'warning', status: 'open', summary: 'Ephemeral storage above 85%', message: 'Image garbage collection is not keeping up on this node.', firstHoursAgo: 72 },
  ];
}

/** The items the demo health checks and the demo incidents are about, by name. */
const CHECK_LINKS: Array<[check: string, type: string, name: string]> = [
  ['opsdeck/healthz', 'Kubernetes::Deployment', 'opsdeck'],
  ['opsdeck/version', 'Kubernetes::Deployment', 'opsdeck'],
  ['opsdeck/port', 'Kubernetes::Service', 'opsdeck'],
  ['database/reachable', 'AWS::RDS::DBInstance', 'opsdeck-db'],
  ['backup/nightly-job', 'AWS::S3::Bucket', 'opsdeck-backups'],
  ['backup/archive-folder', 'AWS::S3::Bucket', 'opsdeck-backups'],
  ['checkout-latency', 'Kubernetes::Deployment', 'checkout'],
  ['payments-api', 'Kubernetes::Deployment', 'payments-api'],
];

async function insertItems(client: pg.PoolClient, items: DemoItem[]): Promise<void> {
  await client.query(
    `insert into config_items (id, scraper_id, external_id, type, config_class, name, status, health, ready, parent_id, tags, labels, config, format,
                               source, cost_per_minute, cost_total_1d, cost_total_7d, cost_total_30d, last_scraped_time, created_at,
                               deleted_at, delete_reason)
     select x.id, x.scraper_id, array[x.external_id], x.type, split_part(x.type, '::', 1), x.name, x.status, x.health, x.ready, x.parent,
            x.tags, x.labels, x.config, 'json', x.source, x.cost,
            round(x.cost * 1440, 4),
            -- Seven and thirty days cost a little more or less than seven and thirty times a day, so the trend badges vary.
            round(x.cost * 10080 * (0.85 + (x.n % 7) * 0.05), 4),
            round(x.cost * 43200 * (0.8 + (x.n % 9) * 0.05), 4),
            now() - make_interval(mins => x.scraped), now() - make_interval(days => x.created_days),
            case when x.deleted_days is not null then now() - make_interval(days => x.deleted_days) - interval '1 hour' end,
            case when x.deleted_days is not null then 'NotFound' end
       from jsonb_to_recordset($1::jsonb) as x(id uuid, scraper_id uuid, external_id text, type text, name text, status text, health text,
            ready boolean, parent uuid, tags jsonb, labels jsonb, config jsonb, source text, cost numeric, scraped integer,
            created_days integer, deleted_days integer, n integer)`,
    [
      JSON.stringify(
        items.map((item, n) => ({
          id: item.id,
          scraper_id: null,
          external_id: item.externalId,
          type: item.type,
          name: item.name,
          status: item.status,
          health: item.health,
          ready: item.ready,
          parent: item.parent,
          tags: item.tags,
          labels: item.labels,
          config: item.config,
          source: item.type.startsWith('AWS::') ? 'AWS' : 'Kubernetes',
          cost: item.costPerMinute,
          scraped: item.scrapedMinutesAgo,
          created_days: item.createdDaysAgo,
          deleted_days: item.deletedDaysAgo,
          n,
        })),
      ),
    ],
  );
}

export interface CatalogDemoResult {
  items: number;
  changes: number;
  insights: number;
  relationships: number;
}

/**
 * A Kubernetes and AWS estate of a few hundred items, the same on every seed except for ids and times (which follow
 * now()): two clusters down to their pods, the AWS resources around them, soft relationships, two weeks of changes
 * with diffs and folded repeats, insights of every type and severity, costs, deleted and stale items, and links to the
 * demo's health checks and first incident. Runs after the health and incident seeds so it can link to what they made.
 */
export async function seedCatalogDemo(client: pg.PoolClient): Promise<CatalogDemoResult | null> {
  const existing = await client.query(`select 1 from config_scrapers where name = 'demo-estate' and deleted_at is null`);
  if ((existing.rowCount ?? 0) > 0) return null;
  // The incident seed acts as a person for the whole session; links made by a person must be manual, these are the demo's.
  await client.query(`select set_config('opsdeck.person_id', '', true)`);
  const scraper = await client.query<{ id: string }>(
    `insert into config_scrapers (name, namespace, description, source, spec)
     values ('demo-estate', 'demo', 'Kubernetes clusters and AWS accounts of the demo shop', 'UI', $1) returning id`,
    [JSON.stringify({ kubernetes: CLUSTERS.map((cluster) => ({ clusterName: cluster.name })), aws: [{ regions: ['eu-west-1', 'us-east-1'] }] })],
  );
  const scraperId = scraper.rows[0]?.id;
  if (scraperId === undefined) throw new Error('scraper insert returned no id');

  const estate = new Estate();
  buildKubernetes(estate);
  buildAws(estate);
  buildCrossLinks(estate);

  // Parents before children: the insert trigger derives each path from the parent's row.
  const depth = new Map<string, number>();
  for (const item of estate.items) depth.set(item.id, item.parent === null ? 0 : (depth.get(item.parent) ?? 0) + 1);
  const levels = Math.max(...depth.values());
  for (let level = 0; level <= levels; level += 1) {
    await insertItems(client, estate.items.filter((item) => depth.get(item.id) === level));
  }
  await client.query('update config_items set scraper_id = $1 where id = any($2::uuid[])', [scraperId, estate.items.map((item) => item.id)]);

  await client.query(
    `insert into config_relationships (config_id, related_id, relation, selector_id)
     select x.from_id, x.to_id, x.relation, 'demo' from jsonb_to_recordset($1::jsonb) as x(from_id uuid, to_id uuid, relation text)
     on conflict do nothing`,
    [JSON.stringify(estate.relationships.map(([from, to, relation]) => ({ from_id: from, to_id: to, relation })))],
  );
  await client.query(
    `insert into config_changes (config_id, change_type, severity, source, summary, diff, details, patches, fingerprint, count, first_observed,
                                 created_at, external_created_by)
     select x.config, x.type, x.severity, x.source, x.summary, x.diff, x.details, x.patches::text, x.fingerprint, x.count,
            now() - make_interval(mins => x.first_minutes), now() - make_interval(mins => x.minutes),
            case when x.source like 'AWS::CloudTrail' then 'terraform-ci' end
       from jsonb_to_recordset($1::jsonb) as x(config uuid, type text, severity text, source text, summary text, diff text, details jsonb,
            patches jsonb, fingerprint text, count integer, first_minutes integer, minutes integer)`,
    [
      JSON.stringify(
        estate.changes.map((change) => ({
          config: change.config,
          type: change.type,
          severity: change.severity,
          source: change.source,
          summary: change.summary,
          diff: change.diff,
          details: change.details,
          patches: change.patches,
          fingerprint: change.fingerprint,
          count: change.count,
          first_minutes: change.firstMinutesAgo,
          minutes: change.minutesAgo,
        })),
      ),
    ],
  );
  const findings = insights(estate);
  await client.query(
    `insert into config_analysis (config_id, scraper_id, analyzer, analysis_type, severity, status, summary, message, analysis, source,
                                  first_observed, last_observed)
     select x.config, $2, x.analyzer, x.type, x.severity, x.status, x.summary, x.message, jsonb_build_object('analyzer', x.analyzer), 'demo',
            now() - make_interval(hours => x.first_hours),
            case when x.status = 'open' then now() - interval '5 minutes' else now() - make_interval(hours => x.first_hours / 2) end
       from jsonb_to_recordset($1::jsonb) as x(config uuid, analyzer text, type text, severity text, status text, summary text, message text,
            first_hours integer)`,
    [
      JSON.stringify(
        findings.map((finding) => ({
          config: finding.config,
          analyzer: finding.analyzer,
          type: finding.type,
          severity: finding.severity,
          status: finding.status,
          summary: finding.summary,
          message: finding.message,
          first_hours: finding.firstHoursAgo,
        })),
      ),
      scraperId,
    ],
  );

  await client.query(
    `insert into check_config_relationships (config_id, check_id, canary_id, selector_id)
     select i.id, k.id, k.canary_id, 'demo'
       from jsonb_to_recordset($1::jsonb) as x(check_name text, type text, name text)
       join checks k on k.name = x.check_name and k.deleted_at is null
       join config_items i on i.scraper_id = $2 and i.type = x.type and i.name = x.name and i.tags ->> 'cluster' is distinct from 'staging-us'
     on conflict do nothing`,
    [JSON.stringify(CHECK_LINKS.map(([check, type, name]) => ({ check_name: check, type, name }))), scraperId],
  );
  await linkIncidentDemo(client, estate, scraperId);
  return { items: estate.items.length, changes: estate.changes.length, insights: findings.length, relationships: estate.relationships.length };
}

/**
 * The incident seed made a stand-alone checkout pod for its evidence; it becomes one of the checkout ReplicaSet's pods,
 * the checkout component links to the Deployment, and the first incident's slow-queries hypothesis gets the
 * Deployment's rollout as config evidence.
 */
async function linkIncidentDemo(client: pg.PoolClient, estate: Estate, scraperId: string): Promise<void> {
  const deployment = find(estate, 'Kubernetes::Deployment', 'checkout');
  const replicaSet = estate.items.find((item) => item.type === 'Kubernetes::ReplicaSet' && item.parent === deployment.id && item.status === 'Running');
  if (replicaSet === undefined) throw new Error('demo catalog has no running checkout ReplicaSet');
  const adopted = await client.query<{ id: string }>(
    `update config_items set parent_id = $1, scraper_id = $2, tags = $3, labels = labels || $4, last_scraped_time = now() - interval '4 minutes'
      where scraper_id is null and type = 'Kubernetes::Pod' and name = 'checkout-7d9f6c' and deleted_at is null
      returning id`,
    [replicaSet.id, scraperId, JSON.stringify(replicaSet.tags), JSON.stringify({ app: 'checkout', team: 'storefront' })],
  );
  const pod = adopted.rows[0]?.id;
  if (pod !== undefined) {
    const node = estate.items.find((item) => item.type === 'Kubernetes::Node' && item.tags.cluster === 'prod-eu');
    if (node === undefined) throw new Error('demo catalog has no prod-eu node');
    const service = find(estate, 'Kubernetes::Service', 'checkout');
    await client.query(
      `insert into config_relationships (config_id, related_id, relation, selector_id)
       values ($1, $2, 'PodNode', 'demo'), ($3, $1, 'ServicePod', 'demo') on conflict do nothing`,
      [pod, node.id, service.id],
    );
    // The incident seed's image change of this pod says what changed but carries no diff; scraped changes always do.
    const container = (image: string) => ({ spec: { containers: [{ name: 'checkout', image, resources: { limits: { memory: '512Mi' } } }] } });
    await client.query(
      `update config_changes set diff = $2 where config_id = $1 and change_type = 'diff' and diff is null`,
      [pod, unifiedDiff('shop/checkout-7d9f6c.yaml', container('shop/checkout:2.13.2'), container('shop/checkout:2.14.0'))],
    );
  }
  await client.query(
    `insert into config_component_relationships (component_id, config_id, selector_id)
     select c.id, $1, 'demo' from components c where c.name = 'checkout' and c.deleted_at is null
     on conflict do nothing`,
    [deployment.id],
  );
  const hypothesis = await client.query<{ id: string; created_by: string | null }>(
    `select h.id, h.created_by from hypotheses h join incidents i on i.id = h.incident_id
      where i.title = 'Checkout latency above SLO' and h.title = 'Slow queries after the 2.14.0 deploy'
      order by i.created_at limit 1`,
  );
  const target = hypothesis.rows[0];
  if (target === undefined) return;
  const lines = yamlLines(deployment.config).slice(0, 40);
  const selected = lines.flatMap((line, index) => (line.includes('image:') || line.includes('memory: 512Mi') ? [index] : []));
  await client.query(
    `insert into evidences (hypothesis_id, type, description, config_id, evidence, created_by) values ($1, 'config', $2, $3, $4, $5)`,
    [
      target.id,
      'checkout Deployment rolled out 2.14.0 with a 512Mi memory limit',
      deployment.id,
      JSON.stringify({ lines, selected_lines: selected, configName: deployment.name, id: deployment.id }),
      target.created_by,
    ],
  );
}
