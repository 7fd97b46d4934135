import { recoverOwnerLinksRequestSchema } from '@pixel-atlas/contracts/manage';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { PageContainer } from '../components/app-layout.tsx';
import { buttonClassName } from '../components/button-styles.ts';
import { TextField } from '../components/form-field.tsx';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { SITE_NAME } from '../lib/site.ts';

const SEND_FAILED = 'We could not send your request. Please try again in a moment.';

/** POST /api/manage/recover; resolves to the server's one answer, or throws with the message to show. */
async function requestOwnerLinks(email: string): Promise<string> {
  const response = await fetch('/api/manage/recover', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  const body = (await response.json().catch(() => null)) as { message?: string; error?: { message?: string } } | null;
  if (response.status === 202 && body?.message) return body.message;
  // 400 and 429 carry a message written for people; anything else is ours to word.
  throw new Error(response.status < 500 && body?.error?.message ? body.error.message : SEND_FAILED);
}

/**
 * "Lost your owner link?" (/owner-link): the address the plots were paid with; the server e-mails a new owner link for
 * each, and answers the same whether or not the address bought anything, so the page never says who bought.
 */
export function OwnerLinkPage() {
  usePageMeta(
    `Lost your owner link? - ${SITE_NAME}`,
    `Get a new private owner link for the plots you bought on ${SITE_NAME}, sent to the e-mail address you paid with.`,
  );
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const recover = useMutation({ mutationFn: requestOwnerLinks });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (recover.isPending) return;
    const parsed = recoverOwnerLinksRequestSchema.safeParse({ email: email.trim() });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please enter a valid email address');
      return;
    }
    setError(undefined);
    recover.mutate(parsed.data.email);
  };

  return (
    <PageContainer>
      <h1 className="text-lg text-gold md:text-2xl">Lost your owner link?</h1>
      <p className="mt-4 max-w-prose text-ink-muted">
        Your private owner link is how you change your plot's message, link and avatar. Enter the e-mail address you gave when you paid, and
        we will e-mail a new owner link for every plot bought with it. Each new link replaces the old one.
      </p>
      <form noValidate onSubmit={submit} className="pixel-panel mt-8 grid max-w-xl gap-5 p-6" aria-label="Lost your owner link?">
        <TextField
          id="owner-link-email"
          label="Email"
          type="email"
          autoComplete="email"
          maxLength={254}
          value={email}
          error={error}
          onValueChange={(value) => {
            setEmail(value);
            setError(undefined);
          }}
        />
        <div>
          <button type="submit" className={buttonClassName('primary', 'md')} disabled={recover.isPending}>
            {recover.isPending ? 'Sending...' : 'Send My Owner Link'}
          </button>
        </div>
        <div role="status" aria-live="polite">
          {recover.isSuccess ? <p className="text-ink">{recover.data}</p> : null}
          {recover.isError ? <p className="text-danger-text">{recover.error.message}</p> : null}
        </div>
      </form>
      <p className="mt-6 text-sm text-ink-muted">
        No e-mail after a few minutes? Check your spam folder, or{' '}
        <Link to="/contact" className="text-sky underline">
          contact us
        </Link>{' '}
        with your plot's name and position.
      </p>
    </PageContainer>
  );
}
