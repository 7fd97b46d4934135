import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeGateway } from '../test/fake-gateway.ts';
import { jsonResponse, renderApp } from '../test/render-app.tsx';
import { deferred } from '../test/render-with-providers.tsx';

async function fillForm(user: UserEvent, fields: { name: string; email: string; subject: string; message: string }) {
  await user.type(screen.getByLabelText('Name'), fields.name);
  await user.type(screen.getByLabelText('Email'), fields.email);
  await user.click(screen.getByRole('combobox', { name: /Subject/ }));
  await user.click(await screen.findByRole('option', { name: fields.subject }));
  await user.type(screen.getByLabelText('Message'), fields.message);
}

const VALID = { name: 'Ada Lovelace', email: 'ada@example.com', subject: 'Billing & Payments', message: 'Where is my receipt?' };

function toastWithTitle(title: string): HTMLElement {
  const element = screen.getByText(title).closest('[data-variant]');
  if (!(element instanceof HTMLElement)) throw new Error(`no toast titled ${title}`);
  return element;
}

describe('contact page', () => {
  it('offers the eight subjects, a 6-row message box and a Visit FAQ button', async () => {
    const user = userEvent.setup();
    renderApp('/contact');

    expect(screen.getByLabelText('Message').getAttribute('rows')).toBe('6');
    expect(screen.getByRole('link', { name: 'Visit FAQ' }).getAttribute('href')).toBe('/faq');
    await user.click(screen.getByRole('combobox', { name: /Subject/ }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'General Inquiry',
      'Technical Support',
      'Billing & Payments',
      'Plot/Tile Issues',
      'Content Moderation',
      'Business Partnership',
      'Feedback & Suggestions',
      'Other',
    ]);
  });

  it('sends the message, shows Sending... meanwhile, then clears the form and confirms with a toast', async () => {
    const user = userEvent.setup();
    const answer = deferred<Response>();
    const gateway = fakeGateway({ 'POST /api/contact': [() => answer.promise] });
    renderApp('/contact');

    await fillForm(user, VALID);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    const sendingButton = await screen.findByRole('button', { name: 'Sending...' });
    expect((sendingButton as HTMLButtonElement).disabled).toBe(true);
    expect(gateway.calls.map((call) => call.route)).toEqual(['POST /api/contact']);
    expect(gateway.calls[0]?.body).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      subject: 'billing',
      message: 'Where is my receipt?',
    });

    answer.resolve(jsonResponse({ id: 'c1', submittedAt: '2026-11-22T10:00:00.000Z' }, { status: 201 }));

    const toast = await waitFor(() => toastWithTitle('Message sent successfully!'));
    expect(toast.getAttribute('data-variant')).toBe('default');
    expect(within(toast).getByText("We'll get back to you within 24-48 hours.")).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('');
    expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('');
    expect(screen.getByLabelText<HTMLTextAreaElement>('Message').value).toBe('');
    expect(screen.getByRole('combobox', { name: /Subject/ }).textContent).toContain('Select a subject');
    expect((await screen.findByRole<HTMLButtonElement>('button', { name: 'Send Message' })).disabled).toBe(false);
  });

  it('keeps the form and shows a destructive toast when sending fails', async () => {
    const user = userEvent.setup();
    fakeGateway({ 'POST /api/contact': [() => jsonResponse({ error: { code: 'INTERNAL', message: 'boom' } }, { status: 500 })] });
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/contact');

    await fillForm(user, VALID);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    const toast = await waitFor(() => toastWithTitle('Error sending message'));
    expect(toast.getAttribute('data-variant')).toBe('destructive');
    expect(within(toast).getByText('Please try again later or contact us directly via email.')).toBeTruthy();
    expect(consoleError).toHaveBeenCalled();
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('Ada Lovelace');
    expect((await screen.findByRole<HTMLButtonElement>('button', { name: 'Send Message' })).disabled).toBe(false);
  });

  it('shows field errors under the fields and sends nothing when the input is invalid', async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({});
    renderApp('/contact');

    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Message'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    const email = screen.getByLabelText('Email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    const emailError = document.getElementById(email.getAttribute('aria-describedby')!);
    expect(emailError?.textContent).toBe('Please enter a valid email address');
    expect(screen.getByText('Please choose a subject from the list')).toBeTruthy();
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBeNull();
    expect(gateway.calls).toEqual([]);

    await user.type(email, 'x');
    expect(email.getAttribute('aria-invalid')).toBeNull();
  });

  it('refuses invisible characters in the name and message with the shared rule, sending nothing', async () => {
    const user = userEvent.setup();
    const gateway = fakeGateway({});
    renderApp('/contact');

    // Pasted, as such characters usually arrive (and faster than typing on a busy machine).
    await user.click(screen.getByLabelText('Name'));
    await user.paste('Ada\u202ELovelace');
    await user.click(screen.getByLabelText('Message'));
    await user.paste('Where\u200B is my receipt?');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    expect(screen.getByText("Name can't contain invisible characters (zero-width spaces or text-direction marks)")).toBeTruthy();
    expect(screen.getByText("Message can't contain invisible characters (zero-width spaces or text-direction marks)")).toBeTruthy();
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(gateway.calls).toEqual([]);
  });
});
