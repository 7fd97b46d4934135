import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { SUPPORT_EMAIL } from '../lib/site.ts';
import { PageContainer } from './app-layout.tsx';

/** Date the current legal texts took effect; change it whenever their wording changes. */
export const LEGAL_EFFECTIVE_DATE = '22 November 2026';

export function LegalPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <PageContainer>
      <article className="prose-legal">
        <h1 className="text-lg text-gold md:text-2xl">{title}</h1>
        <p className="mt-4 text-sm">Effective {LEGAL_EFFECTIVE_DATE}</p>
        {children}
      </article>
    </PageContainer>
  );
}

/** How to reach the operator; the contact form always works, an address only when configured. */
export function LegalContact() {
  return (
    <p>
      Use our <Link to="/contact">contact form</Link>
      {SUPPORT_EMAIL ? (
        <>
          {' '}
          or write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
        </>
      ) : null}
      . We answer within 24-48 hours.
    </p>
  );
}
