import { describe, expect, it } from 'vitest';
import { agentOptionsFrom, agentSharedBuffers } from './run-agent';

describe('agent options', () => {
  it('reads the upstream and token from the environment when no flags are given', () => {
    expect(agentOptionsFrom([], { OPSDECK_UPSTREAM: 'http://up:3000', OPSDECK_AGENT_TOKEN: 't', DATA_DIR: '/d' })).toEqual({
      upstream: 'http://up:3000',
      token: 't',
      dataDir: '/d',
    });
  });

  it('lets flags, in either form, win over the environment', () => {
    const options = agentOptionsFrom(['--upstream=https://a', '--token', 'x', '--data-dir', '/e', '--port', '9000'], {
      OPSDECK_UPSTREAM: 'http://b',
      OPSDECK_AGENT_TOKEN: 'y',
    });
    expect(options).toEqual({ upstream: 'https://a', token: 'x', dataDir: '/e', port: 9000 });
  });

  it('refuses a missing upstream or token, a non-http upstream, a bad port and unknown flags', () => {
    expect(() => agentOptionsFrom([], { OPSDECK_AGENT_TOKEN: 't' })).toThrow(/--upstream/);
    expect(() => agentOptionsFrom(['--upstream', 'http://a'], {})).toThrow(/--token/);
    expect(() => agentOptionsFrom(['--upstream', 'file:///etc', '--token', 't'], {})).toThrow(/http\(s\) URL/);
    expect(() => agentOptionsFrom(['--upstream', 'http://a', '--token', 't', '--port', 'x'], {})).toThrow(/--port/);
    expect(() => agentOptionsFrom(['--upstream', 'http://a', '--token', 't', '--role=api'], {})).toThrow(/not an agent option/);
  });

  it('gives its database a 16MB buffer cache unless OPSDECK_AGENT_SHARED_BUFFERS names another size', () => {
    expect(agentSharedBuffers({})).toBe('16MB');
    expect(agentSharedBuffers({ OPSDECK_AGENT_SHARED_BUFFERS: '512kB' })).toBe('512kB');
    expect(() => agentSharedBuffers({ OPSDECK_AGENT_SHARED_BUFFERS: '16MB; drop table x' })).toThrow(/must be a size/);
    expect(() => agentSharedBuffers({ OPSDECK_AGENT_SHARED_BUFFERS: '0MB' })).toThrow(/must be a size/);
  });
});
