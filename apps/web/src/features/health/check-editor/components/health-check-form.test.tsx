import '@/components/test-support/browser-polyfills';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm, useWatch } from 'react-hook-form';
import { http, HttpResponse } from 'msw';
import { setupMswServer } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import { checkFormFromSpec, specFromCheckForm } from '../check-spec-model';
import type { CanaryFormValues } from '../canary-form-values';
import { HealthCheckForm } from './health-check-form';

const searchConnection = { id: 'c1', name: 'logs-es', namespace: 'observability', type: 'elasticsearch' };
let connectionTypesAsked: (string | null)[] = [];
let connectionsStatus = 200;

setupMswServer(
  http.get('*/api/canary/connections', ({ request }) => {
    const type = new URL(request.url).searchParams.get('type');
    connectionTypesAsked.push(type);
    if (connectionsStatus !== 200) return HttpResponse.json({ code: 'OD403', message: 'You do not have permission to read connections' }, { status: connectionsStatus });
    const data = type === null || type === 'elasticsearch' ? [searchConnection] : [];
    return HttpResponse.json({ data, total: data.length });
  }),
);

afterEach(() => {
  connectionTypesAsked = [];
  connectionsStatus = 200;
});

function renderForm(form: ReactNode) {
  return renderWithProviders(form);
}

const envelope = { $encrypted: 'AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=' };
const storedSpec = { redis: [{ name: 'cache', addr: 'redis:6379', password: envelope }] };

interface TestFormProps {
  onSubmit: (spec: Record<string, unknown>) => void;
  spec?: Record<string, unknown>;
}

function TestForm({ onSubmit, spec = storedSpec }: TestFormProps) {
  const check = checkFormFromSpec(spec);
  if (check === null) throw new Error('the spec should open in the form');
  const { control, handleSubmit, trigger } = useForm<CanaryFormValues>({
    defaultValues: { name: 'check', namespace: 'default', labels: {}, specMode: 'form', spec, check },
  });
  const fieldValues = useWatch({ control, name: 'check.fields' });
  return (
    <form onSubmit={handleSubmit((values) => onSubmit(specFromCheckForm(values.check)))}>
      <HealthCheckForm control={control} type={check.type} fieldValues={fieldValues} revalidate={trigger} disabled={false} />
      <button type="submit">Save</button>
    </form>
  );
}

async function submitted(act: (user: ReturnType<typeof userEvent.setup>, password: HTMLElement) => Promise<void>): Promise<unknown> {
  const user = userEvent.setup();
  const onSubmit = vi.fn();
  renderForm(<TestForm onSubmit={onSubmit} />);
  await act(user, screen.getByLabelText('Password'));
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(onSubmit).toHaveBeenCalledTimes(1);
  const [spec] = onSubmit.mock.calls[0] as [Record<string, unknown>];
  return (spec.redis as Array<Record<string, unknown>>)[0]?.password;
}

describe('a stored password in the health-check form', () => {
  it('shows the password as set with an empty input, and keeps the stored secret when left alone', async () => {
    const password = await submitted(async (_user, input) => {
      expect(input).toHaveValue('');
      expect(input).toHaveAttribute('placeholder', 'Secret is set — type to replace');
    });
    expect(password).toEqual(envelope);
  });

  it('replaces the stored secret with what is typed', async () => {
    expect(await submitted((user, input) => user.type(input, 'new-secret'))).toBe('new-secret');
  });

  it('keeps the stored secret when what was typed is cleared again', async () => {
    expect(
      await submitted(async (user, input) => {
        await user.type(input, 'oops');
        await user.clear(input);
      }),
    ).toEqual(envelope);
  });

  it('removes the stored secret with Remove', async () => {
    expect(await submitted((user) => user.click(screen.getByRole('button', { name: 'Remove' })))).toBeUndefined();
  });
});

describe('a stored request body in the health-check form', () => {
  const posting = { http: [{ name: 'login', url: 'https://api.example.com/login', method: 'POST', body: envelope }] };

  async function submittedBody(act: (user: ReturnType<typeof userEvent.setup>, body: HTMLElement) => Promise<void>): Promise<unknown> {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    renderForm(<TestForm onSubmit={onSubmit} spec={posting} />);
    await act(user, screen.getByLabelText('Body'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    const [spec] = onSubmit.mock.calls[0] as [Record<string, unknown>];
    return (spec.http as Array<Record<string, unknown>>)[0]?.body;
  }

  it('shows the sealed body as set and sends its envelope back unchanged when left alone', async () => {
    const body = await submittedBody(async (_user, input) => {
      expect(input).toHaveValue('');
      expect(input).toHaveAttribute('placeholder', 'Secret is set — type to replace');
    });
    expect(body).toEqual(envelope);
  });

  it('replaces the sealed body with what is typed', async () => {
    expect(await submittedBody((user, input) => user.type(input, 'grant_type=client_credentials'))).toBe('grant_type=client_credentials');
  });
});

describe('the URL of an Elasticsearch check', () => {
  const search = { elasticsearch: [{ name: 'logs', index: 'logs-*' }] };

  it('is required while no connection is named', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    renderForm(<TestForm onSubmit={onSubmit} spec={search} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required')).toBeVisible();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('drops its required message as soon as a connection is named, before the next Save', async () => {
    connectionsStatus = 403;
    const user = userEvent.setup();
    renderForm(<TestForm onSubmit={vi.fn()} spec={search} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required')).toBeVisible();
    await user.type(screen.getByLabelText('Connection'), 'connection://default/logs');
    await waitFor(() => expect(screen.queryByText('This field is required')).toBeNull());
    expect(screen.getByLabelText('URL')).not.toHaveAttribute('aria-invalid');
  });

  it('may be left empty when a connection is named, which the spec then carries, even when stored connections cannot be read', async () => {
    connectionsStatus = 403;
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    renderForm(<TestForm onSubmit={onSubmit} spec={search} />);
    await user.type(screen.getByLabelText('Connection'), 'connection://default/logs');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ elasticsearch: [{ name: 'logs', index: 'logs-*', connection: 'connection://default/logs' }] });
  });

  it('suggests the stored Elasticsearch connections as references', async () => {
    const onSubmit = vi.fn();
    renderForm(<TestForm onSubmit={onSubmit} spec={search} />);
    const input = screen.getByLabelText('Connection');
    const listId = input.getAttribute('list');
    expect(listId).not.toBeNull();
    await waitFor(() => {
      const options = [...document.querySelectorAll(`datalist[id="${listId ?? ''}"] option`)].map((option) => option.getAttribute('value'));
      expect(options).toEqual(['connection://observability/logs-es']);
    });
    expect(connectionTypesAsked).toEqual(['elasticsearch']);
  });
});
