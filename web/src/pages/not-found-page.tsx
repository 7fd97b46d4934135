import { Link } from 'react-router';
import { PageContainer } from '../components/app-layout.tsx';
import { buttonClassName } from '../components/button-styles.ts';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { SITE_NAME } from '../lib/site.ts';

export function NotFoundPage() {
  usePageMeta(`Page Not Found - ${SITE_NAME}`);
  return (
    <PageContainer className="max-w-xl">
      <div className="pixel-panel p-8 text-center">
        <p aria-hidden="true" className="font-pixel text-4xl text-danger-text">
          ?!
        </p>
        <h1 className="mt-6 text-base text-gold md:text-lg">404 Page Not Found</h1>
        <p className="mt-4 text-ink-muted">Did you forget to add the page to the router?</p>
        <Link to="/" className={buttonClassName('primary', 'md', 'mt-8')}>
          Back to the Atlas
        </Link>
      </div>
    </PageContainer>
  );
}
