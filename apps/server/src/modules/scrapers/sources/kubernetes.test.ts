import { describe, expect, it } from 'vitest';
import { kubeConfigFromText, KubernetesSourceError } from '../../../platform/kube-config';
import { RESOURCES } from './kubernetes';

function text(cluster: Record<string, unknown>, user: Record<string, unknown>): string {
  return JSON.stringify({
    clusters: [{ name: 'c', cluster: { server: 'https://kube.example:6443', ...cluster } }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'x',
  });
}

describe('kubeConfigFromText', () => {
  it('keeps the server, inline certificate data and token of the current context', async () => {
    const config = await kubeConfigFromText(text({ 'certificate-authority-data': 'Q0E=' }, { token: 'abc', 'client-certificate-data': 'Q0VSVA==', 'client-key-data': 'S0VZ' }));
    expect(config.getCurrentCluster()).toMatchObject({ server: 'https://kube.example:6443', caData: 'Q0E=', skipTLSVerify: false });
    expect(config.getCurrentUser()).toMatchObject({ token: 'abc', certData: 'Q0VSVA==', keyData: 'S0VZ' });
  });

  it('refuses users that run a program or read a file on the server', async () => {
    const attacks = [
      { exec: { command: 'sh', args: ['-c', 'id'] } },
      { 'auth-provider': { name: 'oidc' } },
      { 'client-certificate': '/etc/ssl/private/cert.pem' },
      { 'client-key': '/etc/ssl/private/key.pem' },
      { tokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token' },
      { 'token-file': '/etc/shadow' },
    ];
    for (const user of attacks) {
      await expect(kubeConfigFromText(text({}, user))).rejects.toThrow(KubernetesSourceError);
      await expect(kubeConfigFromText(text({}, user))).rejects.toThrow(/refused/);
    }
  });

  it('refuses a certificate authority given as a file path', async () => {
    await expect(kubeConfigFromText(text({ 'certificate-authority': '/etc/kubernetes/ca.crt' }, { token: 't' }))).rejects.toThrow(/certificate-authority-data/);
  });

  it('refuses a plain HTTP server unless TLS checks are explicitly off', async () => {
    await expect(kubeConfigFromText(text({ server: 'http://kube.example' }, { token: 't' }))).rejects.toThrow(/plain HTTP/);
    expect((await kubeConfigFromText(text({ server: 'http://kube.example', 'insecure-skip-tls-verify': true }, { token: 't' }))).getCurrentCluster()?.server).toBe('http://kube.example');
  });

  it('names what is wrong with text that is no usable kubeconfig', async () => {
    await expect(kubeConfigFromText('clusters: [')).rejects.toThrow(/not valid YAML/);
    await expect(kubeConfigFromText('{}')).rejects.toThrow(/no usable context/);
  });
});

describe('RESOURCES', () => {
  it('lists the thirteen kinds of the issue and never secrets', () => {
    expect(RESOURCES.map((resource) => resource.plural).sort()).toEqual(
      ['configmaps', 'cronjobs', 'daemonsets', 'deployments', 'ingresses', 'jobs', 'namespaces', 'nodes', 'persistentvolumeclaims', 'pods', 'replicasets', 'services', 'statefulsets'].sort(),
    );
  });
});
