import type { ManagePage as ManagePageData } from '@pixel-atlas/contracts/manage';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { errorMessageForDisplay, errorStatus } from '../api/errors.ts';
import { PLOTS_QUERY_KEY, managePageQuery, plotQuery } from '../api/queries.ts';
import { PageContainer } from '../components/app-layout.tsx';
import { buttonClassName } from '../components/button-styles.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { AvatarReplace } from '../features/manage/avatar-replace.tsx';
import { EmbedBadge } from '../features/manage/embed-badge.tsx';
import { EditContentForm } from '../features/manage/edit-content-form.tsx';
import { LinkHealthNote } from '../features/manage/link-health-note.tsx';
import { rotateOwnerLink } from '../features/manage/manage-actions.ts';
import { OwnerLinkNotice } from '../features/manage/owner-link-notice.tsx';
import { StatsChart } from '../features/manage/stats-chart.tsx';
import { PlotAvatar } from '../features/plots/plot-avatar.tsx';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { toast } from '../hooks/use-toast.ts';
import { SITE_NAME } from '../lib/site.ts';
import { afterDialogSteps } from '../lib/dialog-history.ts';

/**
 * The page's URL holds the owner's token: tell search engines not to index it and browsers not to send it on as a
 * Referer (the gateway sends the same as headers; these cover a visit that started elsewhere in the app).
 */
function usePrivatePage(): void {
  useEffect(() => {
    const added = [
      Object.assign(document.createElement('meta'), { name: 'robots', content: 'noindex, nofollow' }),
      Object.assign(document.createElement('meta'), { name: 'referrer', content: 'no-referrer' }),
    ];
    document.head.append(...added);
    return () => added.forEach((meta) => meta.remove());
  }, []);
}

/** /manage/:token: the owner's private page (edit message, link and avatar; visits; the link's health; a new link). */
export function ManagePage() {
  const { token = '' } = useParams();
  usePrivatePage();
  const page = useQuery(managePageQuery(token));
  if (page.isPending) {
    return (
      <PageContainer className="max-w-2xl min-h-dvh">
        <p role="status" className="text-ink-muted">
          Loading your plot…
        </p>
      </PageContainer>
    );
  }
  if (page.isError)
    return (
      <ManageLinkRefused
        status={errorStatus(page.error)}
        message={errorMessageForDisplay(page.error, 'Your plot could not be loaded right now.')}
      />
    );
  return <OwnerPage token={token} page={page.data} />;
}

function OwnerPage({ token, page }: { token: string; page: ManagePageData }) {
  const { plot } = page;
  usePageMeta(`Manage ${plot.display_name}'s Plot - ${SITE_NAME}`);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [freshToken, setFreshToken] = useState<string | null>(null);
  // The current link stops working at once: asked once before.
  const [confirmingRotate, setConfirmingRotate] = useState(false);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: managePageQuery(token).queryKey });
    void queryClient.invalidateQueries({ queryKey: PLOTS_QUERY_KEY, exact: true });
    void queryClient.invalidateQueries({ queryKey: plotQuery(plot.id).queryKey });
  };
  const rotate = useMutation({
    mutationFn: () => rotateOwnerLink(token),
    onSuccess: ({ token: next }) => {
      setFreshToken(next);
      toast({ title: 'New Link Made', description: 'Your old link no longer works. Copy the new one and keep it safe.' });
      // The same page under its new key, so this screen stays mounted (and shows the new link) across the navigation.
      queryClient.setQueryData(managePageQuery(next).queryKey, page);
      queryClient.removeQueries({ queryKey: managePageQuery(token).queryKey });
      // After the question's own step back in history, which would otherwise land on the old address after this.
      afterDialogSteps(() => void navigate(`/manage/${next}`, { replace: true }));
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: errorMessageForDisplay(error, 'A new link could not be made. Please try again.'),
        variant: 'destructive',
      }),
  });

  return (
    <PageContainer className="grid max-w-2xl min-h-dvh content-start gap-6">
      <section aria-labelledby="manage-heading" className="pixel-panel p-6">
        <div className="flex items-start gap-4">
          <PlotAvatar src={plot.avatar_url} alt={`${plot.display_name}'s avatar`} className="size-20 shrink-0" />
          <div className="grid min-w-0 gap-2">
            <h1 id="manage-heading" className="text-base wrap-anywhere text-gold md:text-xl">
              Manage {plot.display_name}'s Plot
            </h1>
            <p className="text-sm text-ink-muted">
              Position ({plot.x}, {plot.y}) · name, tier and position stay as bought
            </p>
            {plot.visible ? (
              <Link to={`/plot/${encodeURIComponent(plot.id)}`} className="text-sm text-sky underline">
                See your public page
              </Link>
            ) : (
              <p className="text-sm text-ink">Your plot is waiting for review; you can change it once it has been approved.</p>
            )}
          </div>
        </div>
      </section>

      {freshToken ? <OwnerLinkNotice token={freshToken} onDismiss={() => setFreshToken(null)} /> : null}

      <section aria-labelledby="edit-heading" className="pixel-panel grid gap-4 p-6">
        <h2 id="edit-heading" className="text-sm text-gold">
          Message and link
        </h2>
        {page.pendingEdit ? (
          <p role="status" className="text-sm text-ink" data-testid="pending-edit">
            Waiting for review: “{page.pendingEdit.message}”{page.pendingEdit.link ? ` with ${page.pendingEdit.link}` : ''}. Your plot shows
            its current content until our team approves it.
          </p>
        ) : null}
        <EditContentForm key={`${plot.message}|${plot.link}`} token={token} page={page} onSaved={refresh} />
      </section>

      <section aria-labelledby="avatar-heading" className="pixel-panel grid gap-4 p-6">
        <h2 id="avatar-heading" className="text-sm text-gold">
          Avatar
        </h2>
        <AvatarReplace token={token} disabled={!plot.visible} onSaved={refresh} />
      </section>

      <section aria-labelledby="stats-heading" className="pixel-panel grid gap-4 p-6">
        <h2 id="stats-heading" className="text-sm text-gold">
          Visits
        </h2>
        <StatsChart stats={page.stats} />
      </section>

      {plot.visible ? (
        <section aria-labelledby="badge-heading" className="pixel-panel grid gap-4 p-6">
          <h2 id="badge-heading" className="text-sm text-gold">
            Embed a badge
          </h2>
          <EmbedBadge plotId={plot.id} />
        </section>
      ) : null}

      <section aria-labelledby="health-heading" className="pixel-panel grid gap-3 p-6">
        <h2 id="health-heading" className="text-sm text-gold">
          Your link
        </h2>
        <LinkHealthNote health={page.linkHealth} hasLink={Boolean(plot.link)} />
      </section>

      <section aria-labelledby="rotate-heading" className="pixel-panel grid gap-3 p-6">
        <h2 id="rotate-heading" className="text-sm text-gold">
          This private link
        </h2>
        <p className="text-sm text-ink">Shared it by mistake? Make a new one: this link stops working at once.</p>
        <button
          type="button"
          className={buttonClassName('secondary', 'sm', 'w-fit')}
          disabled={rotate.isPending}
          aria-busy={rotate.isPending || undefined}
          onClick={() => setConfirmingRotate(true)}
        >
          {rotate.isPending ? 'Making a New Link...' : 'Make a New Link'}
        </button>
        <ConfirmDialog
          open={confirmingRotate}
          onOpenChange={setConfirmingRotate}
          title="Make a New Link?"
          description="The link you are using now stops working at once, on every device. You will see the new one here: save it, it is the only way back to this page."
          confirmLabel="Make a New Link"
          onConfirm={() => rotate.mutate()}
        />
      </section>
    </PageContainer>
  );
}

function ManageLinkRefused({ status, message }: { status: number | undefined; message: string }) {
  usePageMeta(`Owner Link - ${SITE_NAME}`);
  return (
    <PageContainer className="max-w-xl min-h-dvh">
      <section role="alert" className="pixel-panel p-6 text-center">
        <h1 className="text-base text-gold">{status === 404 ? 'Link Not Valid' : 'Something Went Wrong'}</h1>
        <p className="mt-4 text-ink-muted">{message}</p>
        <Link to="/" className={buttonClassName('primary', 'md', 'mt-6')}>
          Back to Atlas
        </Link>
      </section>
    </PageContainer>
  );
}
