import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const DEPLOY = path.join(ROOT, 'deploy');
const SCHEMA = JSON.parse(readFileSync(path.join(DEPLOY, 'schemas/kubernetes-kinds.schema.json'), 'utf8')) as { $defs: Record<string, unknown> };

interface Manifest {
  file: string;
  kind: string;
  /** Absent only in the Kustomization. */
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  [key: string]: unknown;
}

interface Container {
  name: string;
  args?: string[];
  env?: Array<{ name: string; value?: string }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  ports?: Array<{ name?: string; containerPort: number }>;
  readinessProbe?: { httpGet: { path: string; port: string | number } };
  livenessProbe?: { httpGet: { path: string; port: string | number } };
  volumeMounts?: Array<{ name: string }>;
}

interface DeploymentSpec {
  replicas: number;
  selector: { matchLabels: Record<string, string> };
  template: { metadata: { labels: Record<string, string> }; spec: { containers: Container[]; volumes?: Array<{ name: string }> } };
}

function manifestsIn(folder: string): Manifest[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) =>
      parseAllDocuments(readFileSync(path.join(folder, file), 'utf8')).map((document) => {
        expect(document.errors, file).toEqual([]);
        return { ...(document.toJS() as Omit<Manifest, 'file'>), file } as Manifest;
      }),
    );
}

/** The reduced JSON Schema of one kind, as a validator (zod reads JSON Schema, $defs and $ref included). */
function validatorFor(kind: string): z.ZodType {
  if (SCHEMA.$defs[kind] === undefined) throw new Error(`deploy/schemas has no schema for kind ${kind}`);
  return z.fromJSONSchema({ $ref: `#/$defs/${kind}`, $defs: SCHEMA.$defs } as Parameters<typeof z.fromJSONSchema>[0]);
}

function schemaProblems(manifest: Manifest): string[] {
  const { file: _file, ...document } = manifest;
  const result = validatorFor(manifest.kind).safeParse(document);
  return result.success ? [] : result.error.issues.map((issue) => `${manifest.file} ${manifest.kind}: ${issue.path.join('.')} ${issue.message}`);
}

/** The environment variable names config.ts reads (and the agent's own), to catch a misspelt one in a manifest. */
function knownEnvNames(): Set<string> {
  const sources = ['src/platform/config.ts', 'src/agent/run-agent.ts', 'src/modules/playbooks/playbook-worker.ts'].map((file) =>
    readFileSync(path.join(ROOT, 'apps/server', file), 'utf8'),
  );
  return new Set(sources.flatMap((text) => [...text.matchAll(/\b((?:OPSDECK_|DATABASE_|LOG_)[A-Z_]+|PORT|HOST|DATA_DIR)\b/g)].map((match) => match[1] ?? '')));
}

const cluster = manifestsIn(path.join(DEPLOY, 'kubernetes'));
const agent = manifestsIn(path.join(DEPLOY, 'agent'));
const byKindAndName = (kind: string, name: string): Manifest => {
  const found = cluster.find((manifest) => manifest.kind === kind && (manifest.metadata as Manifest['metadata'] | undefined)?.name === name);
  if (found === undefined) throw new Error(`deploy/kubernetes has no ${kind} ${name}`);
  return found;
};

describe('the Kubernetes manifests in deploy/', () => {
  it('are each valid against the reduced schema of their kind', () => {
    const kinds = new Set([...cluster, ...agent].map((manifest) => manifest.kind));
    expect([...kinds].sort()).toEqual(['ConfigMap', 'Deployment', 'Ingress', 'Kustomization', 'Namespace', 'Secret', 'Service']);
    expect([...cluster, ...agent].flatMap(schemaProblems)).toEqual([]);
  });

  it('refuse a misspelt field, so the schemas do check something', () => {
    const api = byKindAndName('Deployment', 'opsdeck-api');
    const spec = api.spec as unknown as DeploymentSpec;
    const broken = { ...api, spec: { ...spec, replica: 3 } };
    expect(schemaProblems(broken)).not.toEqual([]);
    const container = spec.template.spec.containers[0] as Container;
    const badProbe = { ...container, readinessProbe: { httpGet: { path: 'healthz', port: 'http' } } };
    const withBadProbe = { ...api, spec: { ...spec, template: { ...spec.template, spec: { ...spec.template.spec, containers: [badProbe] } } } };
    expect(schemaProblems(withBadProbe as unknown as Manifest)).not.toEqual([]);
  });

  it('list every manifest file of the folder in the kustomization', () => {
    const resources = (cluster.find((manifest) => manifest.kind === 'Kustomization') as unknown as { resources: string[] }).resources;
    const files = new Set(cluster.filter((manifest) => manifest.kind !== 'Kustomization').map((manifest) => manifest.file));
    expect([...resources].sort()).toEqual([...files].sort());
  });

  it('run api pods with --role=api and worker pods with --role=worker, each selected by its own labels', () => {
    for (const [name, role] of [
      ['opsdeck-api', 'api'],
      ['opsdeck-worker', 'worker'],
    ] as const) {
      const spec = byKindAndName('Deployment', name).spec as unknown as DeploymentSpec;
      expect(spec.replicas).toBeGreaterThanOrEqual(1);
      expect(spec.template.spec.containers[0]?.args).toEqual(['serve', `--role=${role}`]);
      for (const [key, value] of Object.entries(spec.selector.matchLabels)) expect(spec.template.metadata.labels[key]).toBe(value);
      expect(spec.selector.matchLabels['app.kubernetes.io/component']).toBe(role);
    }
  });

  it('send the Service and the Ingress to the api pods only, on the port the console listens on', () => {
    const config = byKindAndName('ConfigMap', 'opsdeck-config').data ?? {};
    const service = byKindAndName('Service', 'opsdeck-api').spec as { selector: Record<string, string>; ports: Array<{ name: string; targetPort: string | number }> };
    const api = byKindAndName('Deployment', 'opsdeck-api').spec as unknown as DeploymentSpec;
    const worker = byKindAndName('Deployment', 'opsdeck-worker').spec as unknown as DeploymentSpec;
    const selects = (labels: Record<string, string>) => Object.entries(service.selector).every(([key, value]) => labels[key] === value);
    expect(selects(api.template.metadata.labels)).toBe(true);
    expect(selects(worker.template.metadata.labels)).toBe(false);

    const apiPorts = api.template.spec.containers[0]?.ports ?? [];
    const target = service.ports[0]?.targetPort;
    const targetPort = typeof target === 'number' ? target : apiPorts.find((port) => port.name === target)?.containerPort;
    expect(targetPort).toBe(Number(config.PORT));

    const ingress = byKindAndName('Ingress', 'opsdeck').spec as { rules: Array<{ http: { paths: Array<{ backend: { service: { name: string; port: { name?: string; number?: number } } } }> } }> };
    for (const rule of ingress.rules) {
      for (const route of rule.http.paths) {
        expect(route.backend.service.name).toBe('opsdeck-api');
        expect(service.ports.map((port) => port.name)).toContain(route.backend.service.port.name);
      }
    }
  });

  it('probe /healthz on the console port, expose the metrics port the config sets, and mount what they declare', () => {
    const config = byKindAndName('ConfigMap', 'opsdeck-config').data ?? {};
    for (const name of ['opsdeck-api', 'opsdeck-worker']) {
      const pod = (byKindAndName('Deployment', name).spec as unknown as DeploymentSpec).template.spec;
      const container = pod.containers[0] as Container;
      const ports = new Map((container.ports ?? []).map((port) => [port.name, port.containerPort]));
      expect(ports.get('http')).toBe(Number(config.PORT));
      expect(ports.get('metrics')).toBe(Number(config.OPSDECK_METRICS_PORT));
      for (const probe of [container.readinessProbe, container.livenessProbe]) {
        expect(probe?.httpGet.path).toBe('/healthz');
        expect(probe?.httpGet.port).toBe('http');
      }
      const volumes = new Set((pod.volumes ?? []).map((volume) => volume.name));
      for (const mount of container.volumeMounts ?? []) expect(volumes).toContain(mount.name);
      const references = (container.envFrom ?? []).map((source) => source.configMapRef?.name ?? source.secretRef?.name);
      expect(references.sort()).toEqual(['opsdeck-config', 'opsdeck-secrets']);
    }
  });

  it('set only environment variables the server reads, and a configuration it accepts', () => {
    const known = knownEnvNames();
    const config = byKindAndName('ConfigMap', 'opsdeck-config').data ?? {};
    const secret = byKindAndName('Secret', 'opsdeck-secrets').stringData ?? {};
    const agentSecret = agent.find((manifest) => manifest.kind === 'Secret')?.stringData ?? {};
    const inline = cluster
      .filter((manifest) => manifest.kind === 'Deployment')
      .flatMap((manifest) => (manifest.spec as unknown as DeploymentSpec).template.spec.containers.flatMap((container) => container.env ?? []));
    const names = [...Object.keys(config), ...Object.keys(secret), ...Object.keys(agentSecret), ...inline.map((variable) => variable.name)];
    expect(names.filter((name) => !known.has(name))).toEqual([]);

    const env: NodeJS.ProcessEnv = { ...config, ...secret, ...Object.fromEntries(inline.map((variable) => [variable.name, variable.value ?? ''])) };
    const loaded = loadConfig(env, { secretKey: Buffer.alloc(32), dataDir: '/nonexistent' });
    expect(loaded).toMatchObject({ port: 8080, metricsPort: 9464, metricsHost: '0.0.0.0', trustProxy: true, seedDemo: false, leaseSeconds: 120 });
    expect(loaded.databaseUrl).toMatch(/^postgres:\/\//);
  });

  it('run one agent per token in the remote cluster, with its upstream and token from a Secret', () => {
    const deployment = agent.find((manifest) => manifest.kind === 'Deployment');
    const spec = deployment?.spec as unknown as DeploymentSpec & { strategy: { type: string } };
    expect(spec.replicas).toBe(1);
    expect(spec.strategy.type).toBe('Recreate');
    const container = spec.template.spec.containers[0] as Container;
    expect(container.args?.[0]).toBe('agent');
    const secretName = container.envFrom?.[0]?.secretRef?.name;
    const secret = agent.find((manifest) => manifest.kind === 'Secret' && manifest.metadata.name === secretName);
    expect(Object.keys(secret?.stringData ?? {}).sort()).toEqual(['OPSDECK_AGENT_TOKEN', 'OPSDECK_UPSTREAM']);
  });

  it.runIf(spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0)('render with kubectl kustomize into the namespace they name', () => {
    const rendered = spawnSync('kubectl', ['kustomize', path.join(DEPLOY, 'kubernetes')], { encoding: 'utf8' });
    expect(rendered.stderr).toBe('');
    expect(rendered.status).toBe(0);
    const documents = parseAllDocuments(rendered.stdout).map((document) => document.toJS() as Manifest);
    expect(documents.map((document) => document.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Deployment', 'Ingress', 'Namespace', 'Secret', 'Service']);
    for (const document of documents.filter((d) => d.kind !== 'Namespace')) expect(document.metadata.namespace).toBe('opsdeck');
  });
});
