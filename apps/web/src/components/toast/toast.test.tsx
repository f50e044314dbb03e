import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { AppToaster } from './app-toaster';
import { errorDetails, errorMessage, toastError, toastSuccess } from './toast';

describe('errorMessage', () => {
  it("prefers the server body's message of an API error", () => {
    const apiError = Object.assign(new Error('Request failed with status 409'), { body: { message: 'duplicate key', code: '23505' } });
    expect(errorMessage(apiError)).toBe('duplicate key');
  });

  it('uses the message of a plain error or error-like object', () => {
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage({ message: 'from postgrest', code: 'PGRST116' })).toBe('from postgrest');
    expect(errorMessage('plain text')).toBe('plain text');
  });

  it('falls back to a generic message', () => {
    expect(errorMessage(undefined)).toBe('Something went wrong');
    expect(errorMessage(new Error(''))).toBe('Something went wrong');
  });
});

describe('errorDetails', () => {
  it("joins the server body's details and hint", () => {
    const apiError = Object.assign(new Error('Request failed'), { body: { message: 'The canary spec is not valid', details: 's3: check type is not supported', hint: 'Use a supported type' } });
    expect(errorDetails(apiError)).toBe('s3: check type is not supported — Use a supported type');
  });

  it('is null when the error carries no details, and shortens very long details', () => {
    expect(errorDetails(new Error('boom'))).toBeNull();
    expect(errorDetails({ body: { message: 'x', details: null } })).toBeNull();
    expect(errorDetails({ body: { details: 'a'.repeat(600) } })).toHaveLength(500);
  });
});

describe('toasts', () => {
  it('shows success and error toasts in the app toaster at the top right', async () => {
    render(<AppToaster />);
    act(() => {
      toastSuccess('Saved it');
      toastError({ body: { message: 'Server said no' } });
    });
    expect(await screen.findByText('Saved it')).toBeInTheDocument();
    expect(await screen.findByText('Server said no')).toBeInTheDocument();
    expect(document.querySelector('[data-sonner-toaster]')).toHaveAttribute('data-y-position', 'top');
    act(() => toastError({ body: { message: 'Spec refused', details: 'http[0].url: This field is required' } }));
    expect(await screen.findByText('http[0].url: This field is required')).toBeInTheDocument();
    expect(document.querySelector('[data-sonner-toaster]')).toHaveAttribute('data-x-position', 'right');
  });
});
