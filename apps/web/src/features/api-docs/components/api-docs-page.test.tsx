import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupMswServer } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import { apiDocsRoutes } from '../routes';

const document = {
  openapi: '3.0.3',
  info: { title: 'Opsdeck API', version: '1.2.3', description: 'Operations console' },
  components: {
    schemas: {
      Labels: { type: 'object', additionalProperties: { type: 'string' } },
    },
  },
  paths: {
    '/api/agents': {
      post: {
        tags: ['agents'],
        summary: 'Create an agent',
        'x-permission': { resource: 'agents', action: 'write' },
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['name'],
                properties: {
                  name: { type: 'string', minLength: 1, maxLength: 255 },
                  kubernetes: {
                    type: 'object',
                    properties: { interval: { type: 'string', enum: ['30m', '1h'], default: '30m' } },
                  },
                  labels: { $ref: '#/components/schemas/Labels' },
                  topologyName: { anyOf: [{ type: 'string' }, { type: 'null' }] },
                },
              },
            },
          },
        },
        responses: {
          201: {
            description: 'Default Response',
            content: { 'application/json': { schema: { type: 'object', properties: { access_token: { type: 'string' } } } } },
          },
        },
      },
    },
    '/api/agents/{id}': {
      get: {
        tags: ['agents'],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: { 404: { description: 'No such agent' } },
      },
    },
    '/api/canary/canaries': {
      get: {
        tags: ['health'],
        summary: 'List canaries',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } }],
        responses: { 200: { description: 'Default Response' } },
      },
    },
  },
};

let answer: () => Response = () => HttpResponse.json(document);

setupMswServer(http.get('*/api/openapi.json', () => answer()));

afterEach(() => {
  answer = () => HttpResponse.json(document);
});

function renderAt(path: string) {
  return renderRoutes(apiDocsRoutes, path).router;
}

describe('API reference page', () => {
  it('groups the operations by tag, each with its method, path and summary', async () => {
    renderAt('/docs/api');
    const agents = await screen.findByRole('region', { name: 'agents' });
    expect(within(agents).getByText('/api/agents')).toBeInTheDocument();
    expect(within(agents).getByText('Create an agent')).toBeInTheDocument();
    expect(within(agents).getByText('/api/agents/{id}')).toBeInTheDocument();
    const health = screen.getByRole('region', { name: 'health' });
    expect(within(health).getByText('get')).toBeInTheDocument();
    expect(within(health).getByText('/api/canary/canaries')).toBeInTheDocument();
    expect(screen.getByText(/Opsdeck API 1\.2\.3/)).toBeInTheDocument();
  });

  it('shows the permission, parameters and request and response schemas as readable nested fields', async () => {
    const user = userEvent.setup();
    renderAt('/docs/api');
    await user.click(await screen.findByText('Create an agent'));
    const operation = screen.getByText('Create an agent').closest('details');
    if (operation === null) throw new Error('operation not found');
    expect(operation).toHaveAttribute('open');
    const body = within(operation);
    expect(body.getByText(/Permission:/).parentElement).toHaveTextContent('write on agents');
    expect(body.getByText('Request body (required)')).toBeInTheDocument();
    const name = body.getByText('name').parentElement;
    expect(name).toHaveTextContent('string');
    expect(name).toHaveTextContent('required');
    expect(name).toHaveTextContent('at least 1 characters · at most 255 characters');
    expect(body.getByText('interval').parentElement).toHaveTextContent('one of "30m", "1h" · default "30m"');
    expect(body.getByText('{any key}').parentElement).toHaveTextContent('string');
    expect(body.getByText('topologyName').parentElement).toHaveTextContent('string or null');
    expect(body.getByText('201')).toBeInTheDocument();
    expect(body.getByText('access_token')).toBeInTheDocument();
    expect(body.queryByText('Default Response')).not.toBeInTheDocument();
  });

  it('narrows the operations to those matching every word searched, keeping the search in the URL', async () => {
    const user = userEvent.setup();
    const router = renderAt('/docs/api');
    const search = await screen.findByRole('searchbox', { name: 'Search operations' });
    await screen.findByText('/api/canary/canaries');
    await user.type(search, 'get agents');
    expect(screen.getByText('/api/agents/{id}')).toBeInTheDocument();
    expect(screen.queryByText('/api/agents')).not.toBeInTheDocument();
    expect(screen.queryByText('/api/canary/canaries')).not.toBeInTheDocument();
    expect(router.state.location.search).toBe('?q=get+agents');

    await user.clear(search);
    await user.type(search, 'nothing-like-this');
    expect(screen.getByText('No operation matches “nothing-like-this”.')).toBeInTheDocument();
  });

  it('shows a loading state, then a readable error with a retry when the document cannot be read', async () => {
    answer = () => HttpResponse.json({ code: 'OD500', message: 'Internal server error', details: null, hint: null }, { status: 500 });
    renderAt('/docs/api');
    expect(await screen.findByRole('status')).toHaveTextContent('Loading the API reference…');
    expect(await screen.findByRole('alert')).toHaveTextContent('The API reference could not be loaded: Internal server error');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('says so when the answer is not an OpenAPI document', async () => {
    answer = () => HttpResponse.json({ hello: 'world' });
    renderAt('/docs/api');
    expect(await screen.findByRole('alert')).toHaveTextContent('not an OpenAPI document');
  });

  it('says so when the document lists no operations', async () => {
    answer = () => HttpResponse.json({ ...document, paths: {} });
    renderAt('/docs/api');
    expect(await screen.findByText('The server documents no operations.')).toBeInTheDocument();
  });
});

describe('project documentation pages', () => {
  it('renders a bundled doc with headings, tables and links to other docs kept inside the app', async () => {
    const user = userEvent.setup();
    const router = renderAt('/docs/architecture');
    expect(await screen.findByRole('heading', { name: 'Architecture', level: 1 })).toBeInTheDocument();
    const security = screen.getAllByRole('link', { name: 'security.md' })[0];
    if (security === undefined) throw new Error('no link to security.md');
    expect(security).toHaveAttribute('href', '/docs/security');
    await user.click(security);
    expect(await screen.findByRole('heading', { name: 'Security', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/docs/security');
    expect(screen.getAllByRole('table').length).toBeGreaterThan(0);
  });

  it('says when no document has that name', async () => {
    renderAt('/docs/no-such-doc');
    expect(await screen.findByRole('alert')).toHaveTextContent('There is no document named “no-such-doc”.');
  });
});
