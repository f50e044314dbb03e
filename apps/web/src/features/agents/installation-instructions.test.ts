import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { AGENT_CHART, fluxManifest, helmCommand, type InstallationTarget } from './installation-instructions';

const target: InstallationTarget = {
  serverUrl: 'https://ops.example.test',
  agentName: "o'brien, eu",
  accessToken: 'opsdeck_agent_abc-DEF_123',
  kubernetes: { enabled: true, interval: '30m' },
  pushTelemetry: { enabled: false, topologyName: null },
};

describe('installation instructions', () => {
  it('builds a Flux HelmRepository and HelmRelease whose values carry the server, the agent name and the token', () => {
    const documents = parseAllDocuments(fluxManifest(target)).map((document) => document.toJS() as Record<string, unknown>);
    expect(documents.map((document) => document.kind)).toEqual(['HelmRepository', 'HelmRelease']);
    expect(documents[1]).toMatchObject({
      metadata: { name: AGENT_CHART.release, namespace: AGENT_CHART.namespace },
      spec: {
        chart: { spec: { chart: AGENT_CHART.chart, sourceRef: { kind: 'HelmRepository', name: AGENT_CHART.repositoryName } } },
        values: {
          upstream: { host: 'https://ops.example.test', agentName: "o'brien, eu", token: 'opsdeck_agent_abc-DEF_123' },
          kubernetes: { enabled: true, interval: '30m' },
          pushTelemetry: { enabled: false },
        },
      },
    });
  });

  it('quotes the agent name for the shell and escapes the commas helm would split on', () => {
    const command = helmCommand(target);
    expect(command).toContain(`helm install ${AGENT_CHART.release} ${AGENT_CHART.repositoryName}/${AGENT_CHART.chart}`);
    expect(command).toContain(`--set-string upstream.agentName='o'\\''brien\\, eu'`);
    expect(command).toContain("--set-string upstream.token='opsdeck_agent_abc-DEF_123'");
    expect(command).toContain("--set-string upstream.host='https://ops.example.test'");
    expect(command).toContain('--set kubernetes.enabled=true');
    expect(command).toContain("--set-string kubernetes.interval='30m'");
    expect(command).not.toContain('topologyName');
  });

  it('passes the topology name only when push telemetry names one', () => {
    const command = helmCommand({ ...target, pushTelemetry: { enabled: true, topologyName: 'edge' } });
    expect(command).toContain('--set pushTelemetry.enabled=true');
    expect(command).toContain("--set-string pushTelemetry.topologyName='edge'");
  });

  describe('with a hostile agent name', () => {
    const hostile = `edge "eu" o'brien $(touch /tmp/pwned) \`id\` \\n {a,b} yes: no`;
    const hostileTarget: InstallationTarget = { ...target, agentName: hostile, pushTelemetry: { enabled: true, topologyName: '{prod}, "blue"' } };

    /** Reads one shell word as POSIX sh would, refusing anything the shell would expand or split. */
    function readShellWord(word: string): string {
      let result = '';
      for (let index = 0; index < word.length; index += 1) {
        const character = word[index] ?? '';
        if (character === "'") {
          const end = word.indexOf("'", index + 1);
          if (end < 0) throw new Error('unterminated quote');
          result += word.slice(index + 1, end);
          index = end;
        } else if (character === '\\') {
          result += word[index + 1] ?? '';
          index += 1;
        } else if (/[\s$`"|;&<>(){}*?#~]/.test(character)) {
          throw new Error(`unquoted ${character}`);
        } else {
          result += character;
        }
      }
      return result;
    }

    /** Reads one --set value as helm's strvals does, refusing a list or a split. */
    function readHelmValue(value: string): string {
      if (value.startsWith('{')) throw new Error('helm would read a list');
      let result = '';
      for (let index = 0; index < value.length; index += 1) {
        const character = value[index] ?? '';
        if (character === ',') throw new Error('helm would split the value');
        if (character === '\\') {
          result += value[index + 1] ?? '';
          index += 1;
        } else {
          result += character;
        }
      }
      return result;
    }

    function setStringValue(command: string, key: string): string {
      const line = command.split('\n').find((candidate) => candidate.trimStart().startsWith(`--set-string ${key}=`));
      if (line === undefined) throw new Error(`no --set-string ${key}`);
      return line.trimStart().slice(`--set-string ${key}=`.length).replace(/ \\$/, '');
    }

    it('passes a name with spaces, quotes, $(…) and backticks to helm as exactly that text, with nothing for the shell to run', () => {
      const command = helmCommand(hostileTarget);
      expect(readHelmValue(readShellWord(setStringValue(command, 'upstream.agentName')))).toBe(hostile);
      expect(readHelmValue(readShellWord(setStringValue(command, 'pushTelemetry.topologyName')))).toBe('{prod}, "blue"');
    });

    it('writes the name into the Flux manifest as a quoted string that reads back unchanged in YAML 1.1 and 1.2', () => {
      const manifest = fluxManifest({ ...hostileTarget, agentName: hostile });
      for (const version of ['1.1', '1.2'] as const) {
        const [, release] = parseAllDocuments(manifest, { version }).map((document) => document.toJS() as { spec?: { values?: { upstream?: { agentName?: unknown } } } });
        expect(release?.spec?.values?.upstream?.agentName).toBe(hostile);
      }
      expect(manifest).toContain('agentName: "edge \\"eu\\" o\'brien $(touch /tmp/pwned) `id` \\\\n {a,b} yes: no"');
    });

    it('keeps a name YAML 1.1 would read as a boolean or a number a string', () => {
      for (const agentName of ['yes', 'off', '0123', '1e3', 'null']) {
        const [, release] = parseAllDocuments(fluxManifest({ ...target, agentName }), { version: '1.1' }).map(
          (document) => document.toJS() as { spec?: { values?: { upstream?: { agentName?: unknown } } } },
        );
        expect(release?.spec?.values?.upstream?.agentName).toBe(agentName);
      }
    });
  });
});
