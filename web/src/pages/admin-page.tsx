import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminMe } from '@pixel-atlas/contracts/admin';
import { api } from '../api/client.ts';
import { errorMessageForDisplay } from '../api/errors.ts';
import { ADMIN_API_PREFIX, adminMeQuery } from '../api/queries.ts';
import { PageContainer } from '../components/app-layout.tsx';
import { buttonClassName } from '../components/button-styles.ts';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { useToast } from '../hooks/use-toast.ts';
import { SITE_NAME } from '../lib/site.ts';
import { AdminSignInForm } from './admin/admin-sign-in-form.tsx';
import { AdminSections, type AdminSection } from './admin/sections.tsx';

const PAGE_TITLE = 'Atlas Map Administration';

export function AdminPage() {
  usePageMeta(`${PAGE_TITLE} - ${SITE_NAME}`);
  const session = useQuery(adminMeQuery());

  return (
    // Long unbroken text anywhere on the screen (a name, a seed, a queued link) wraps instead of scrolling a phone sideways.
    <PageContainer className="max-w-5xl wrap-anywhere">
      <h1 className="mb-8 text-lg text-gold md:text-2xl">{PAGE_TITLE}</h1>
      {session.isPending ? (
        <p role="status" className="text-ink-muted">
          Checking your session…
        </p>
      ) : session.isError ? (
        <div role="alert" className="pixel-panel p-6">
          <p className="text-ink">{errorMessageForDisplay(session.error, 'Could not reach the administration service.')}</p>
          <button type="button" className={buttonClassName('secondary', 'sm', 'mt-4')} onClick={() => void session.refetch()}>
            Try again
          </button>
        </div>
      ) : session.data === null ? (
        <AdminSignInForm />
      ) : (
        <SignedInAdmin admin={session.data} />
      )}
    </PageContainer>
  );
}

function SignedInAdmin({ admin }: { admin: AdminMe }) {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const signOut = useMutation({
    mutationFn: () => api.POST('/api/admin/logout'),
    onSuccess: () => {
      // Admin data must not outlive the session that was allowed to see it.
      const me = adminMeQuery().queryKey;
      queryClient.removeQueries({
        predicate: (query) => {
          const path = String(query.queryKey[0]);
          return path.startsWith(ADMIN_API_PREFIX) && path !== me[0];
        },
      });
      queryClient.setQueryData(me, null);
    },
    onError: (error) => {
      toast({ title: 'Sign out failed', description: errorMessageForDisplay(error, 'Please try again.'), variant: 'destructive' });
    },
  });

  return (
    <>
      <div className="pixel-panel mb-8 flex flex-wrap items-center justify-between gap-4 p-4">
        <p className="text-ink">
          Signed in as <strong className="font-semibold text-gold">{admin.username}</strong>
        </p>
        <button type="button" className={buttonClassName('secondary', 'sm')} disabled={signOut.isPending} onClick={() => signOut.mutate()}>
          {signOut.isPending ? 'Signing out...' : 'Sign out'}
        </button>
      </div>
      <div className="grid gap-8">
        {AdminSections.map((section) => (
          <AdminSectionFrame key={section.id} section={section} />
        ))}
      </div>
    </>
  );
}

const alwaysVisible = () => true;

function AdminSectionFrame({ section }: { section: AdminSection }) {
  const { id, title, Component, useIsVisible = alwaysVisible } = section;
  if (!useIsVisible()) return null;
  return (
    <section data-testid={`admin-${id}`} aria-labelledby={`admin-${id}-heading`} className="pixel-panel p-6">
      <h2 id={`admin-${id}-heading`} className="mb-4 text-sm text-gold">
        {title}
      </h2>
      <Component />
    </section>
  );
}
