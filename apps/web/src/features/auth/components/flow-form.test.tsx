import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { browserSupportsWebAuthn, startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import type * as WebAuthnModule from '@simplewebauthn/browser';
import type { FlowValues, SelfServiceFlow } from '../api/flow-types';
import { csrf, flowOf, input, submit } from '../test-flows';
import { FlowForm } from './flow-form';

// The real WebAuthnError stays: the form tells its codes apart.
vi.mock('@simplewebauthn/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof WebAuthnModule>();
  return { ...actual, browserSupportsWebAuthn: vi.fn(), startRegistration: vi.fn(), startAuthentication: vi.fn() };
});

const REGISTRATION_OPTIONS = { challenge: 'c2lnbi1tZQ', rp: { name: 'Opsdeck', id: 'localhost' }, user: { id: 'dQ', name: 'ada', displayName: 'Ada' }, pubKeyCredParams: [] };
const REQUEST_OPTIONS = { challenge: 'bG9naW4', allowCredentials: [] };

function registerFlow(): SelfServiceFlow {
  return flowOf('settings', 'set-1', [
    csrf(),
    input('webauthn', 'webauthn_register_displayname', 'text', 'Name of the security key'),
    input('webauthn', 'webauthn_register_trigger', 'button', 'Add security key', { value: JSON.stringify(REGISTRATION_OPTIONS) }),
    input('webauthn', 'webauthn_register', 'hidden', null),
    submit('webauthn', 'webauthn_remove', 'key-1', 'Remove security key "YubiKey"'),
  ]);
}

function loginFlow(): SelfServiceFlow {
  return flowOf('login', 'login-1', [
    csrf(),
    // Some services wrap the options the way navigator.credentials.get takes them.
    input('webauthn', 'webauthn_login_trigger', 'button', 'Use security key', { value: JSON.stringify({ publicKey: REQUEST_OPTIONS }) }),
    input('webauthn', 'webauthn_login', 'hidden', null),
  ]);
}

function renderForm(flow: SelfServiceFlow, onSubmit: (values: FlowValues) => Promise<void>) {
  return render(<FlowForm flow={flow} onSubmit={onSubmit} />);
}

beforeEach(() => {
  vi.mocked(browserSupportsWebAuthn).mockReturnValue(true);
});

afterEach(() => {
  cleanup();
  vi.mocked(startRegistration).mockReset();
  vi.mocked(startAuthentication).mockReset();
});

describe('FlowForm with WebAuthn', () => {
  it('registers a security key with the options of the trigger and submits the result as method webauthn', async () => {
    const credential = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: 'o2M' }, clientExtensionResults: {} };
    vi.mocked(startRegistration).mockResolvedValue(credential as Awaited<ReturnType<typeof startRegistration>>);
    const onSubmit = vi.fn<(values: FlowValues) => Promise<void>>().mockResolvedValue();
    const user = userEvent.setup();
    renderForm(registerFlow(), onSubmit);
    await user.type(screen.getByLabelText('Name of the security key'), 'YubiKey 5');
    await user.click(screen.getByRole('button', { name: 'Add security key' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: REGISTRATION_OPTIONS });
    expect(onSubmit).toHaveBeenCalledWith({
      csrf_token: 'csrf-123',
      webauthn_register_displayname: 'YubiKey 5',
      webauthn_register: JSON.stringify(credential),
      method: 'webauthn',
    });
  });

  it('signs in with a security key through the browser and submits the assertion', async () => {
    const assertion = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'YQ', signature: 'cw' }, clientExtensionResults: {} };
    vi.mocked(startAuthentication).mockResolvedValue(assertion as Awaited<ReturnType<typeof startAuthentication>>);
    const onSubmit = vi.fn<(values: FlowValues) => Promise<void>>().mockResolvedValue();
    const user = userEvent.setup();
    renderForm(loginFlow(), onSubmit);
    await user.click(screen.getByRole('button', { name: 'Use security key' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: REQUEST_OPTIONS });
    expect(onSubmit).toHaveBeenCalledWith({ csrf_token: 'csrf-123', webauthn_login: JSON.stringify(assertion), method: 'webauthn' });
  });

  it('explains a refused or cancelled prompt next to the button and submits nothing', async () => {
    const refusal = new Error('The operation either timed out or was not allowed.');
    refusal.name = 'NotAllowedError';
    vi.mocked(startRegistration).mockRejectedValue(refusal);
    const onSubmit = vi.fn<(values: FlowValues) => Promise<void>>().mockResolvedValue();
    const user = userEvent.setup();
    renderForm(registerFlow(), onSubmit);
    const trigger = screen.getByRole('button', { name: 'Add security key' });
    await user.click(trigger);
    expect(await screen.findByRole('alert')).toHaveTextContent('The browser refused the request or it timed out.');
    expect(trigger).toHaveAccessibleDescription(/refused the request/);
    expect(trigger).toBeEnabled();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('says when a key is already registered', async () => {
    vi.mocked(startRegistration).mockRejectedValue(
      new WebAuthnError({ message: 'already registered', code: 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED', cause: new Error('InvalidStateError') }),
    );
    const user = userEvent.setup();
    renderForm(registerFlow(), vi.fn<(values: FlowValues) => Promise<void>>().mockResolvedValue());
    await user.click(screen.getByRole('button', { name: 'Add security key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This security key or device is already registered to your account.');
  });

  it('says so when the browser has no WebAuthn at all', async () => {
    vi.mocked(browserSupportsWebAuthn).mockReturnValue(false);
    const user = userEvent.setup();
    const onSubmit = vi.fn<(values: FlowValues) => Promise<void>>().mockResolvedValue();
    renderForm(loginFlow(), onSubmit);
    await user.click(screen.getByRole('button', { name: 'Use security key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This browser cannot use security keys or biometrics.');
    expect(startAuthentication).not.toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('runs one ceremony at a time and spins on the trigger meanwhile', async () => {
    let finish: (value: Awaited<ReturnType<typeof startRegistration>>) => void = () => undefined;
    vi.mocked(startRegistration).mockImplementation(
      () =>
        new Promise((resolve) => {
          finish = resolve;
        }),
    );
    const onSubmit = vi.fn<(values: FlowValues) => Promise<void>>().mockResolvedValue();
    const user = userEvent.setup();
    renderForm(registerFlow(), onSubmit);
    const trigger = screen.getByRole('button', { name: 'Add security key' });
    await user.click(trigger);
    await user.click(trigger);
    expect(trigger).toBeDisabled();
    expect(trigger).toHaveAttribute('aria-busy', 'true');
    expect(startRegistration).toHaveBeenCalledTimes(1);
    finish({ id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: 'o2M' }, clientExtensionResults: {} });
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
  });

  it('sends a remove button with its value and its group as the method', async () => {
    const onSubmit = vi.fn<(values: FlowValues) => Promise<void>>().mockResolvedValue();
    const user = userEvent.setup();
    renderForm(registerFlow(), onSubmit);
    await user.click(screen.getByRole('button', { name: 'Remove security key "YubiKey"' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith({ csrf_token: 'csrf-123', webauthn_register_displayname: '', webauthn_register: '', webauthn_remove: 'key-1', method: 'webauthn' });
    expect(startRegistration).not.toHaveBeenCalled();
  });
});

describe('FlowForm with social sign-in', () => {
  it('lets a provider button post the form natively, without a spinner', async () => {
    const onSubmit = vi.fn<(values: FlowValues) => Promise<void>>().mockResolvedValue();
    const flow = flowOf('login', 'login-1', [csrf(), submit('oidc', 'provider', 'corp', 'Sign in with Corp SSO')]);
    const nativeSubmits: boolean[] = [];
    const user = userEvent.setup();
    render(<FlowForm flow={flow} onSubmit={onSubmit} />);
    const form = document.querySelector('form');
    // jsdom cannot navigate; the event reaching the document un-prevented is what a native submit needs.
    document.addEventListener('submit', (event) => {
      nativeSubmits.push(event.defaultPrevented);
      event.preventDefault();
    });
    await user.click(screen.getByRole('button', { name: 'Sign in with Corp SSO' }));
    expect(form).toHaveAttribute('action', '/api/auth/self-service/login?flow=login-1');
    expect(nativeSubmits).toEqual([false]);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Sign in with Corp SSO' })).not.toHaveAttribute('aria-busy', 'true');
  });
});
