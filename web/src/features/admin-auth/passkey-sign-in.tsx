import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminMeQuery } from '../../api/queries.ts';
import { buttonClassName } from '../../components/button-styles.ts';
import { passkeyFailureMessage, signInWithPasskey } from './passkey-ceremony.ts';

/** 'Sign in with a passkey' under the password form: no username to type, and no throttle a stranger can fill. */
export function PasskeySignIn() {
  const queryClient = useQueryClient();
  const signIn = useMutation({
    mutationFn: signInWithPasskey,
    onSuccess: (me) => queryClient.setQueryData(adminMeQuery().queryKey, me),
  });
  return (
    <div className="grid gap-3 border-t-2 border-border pt-5">
      {signIn.isError ? (
        <p role="alert" className="border-2 border-danger-edge bg-danger/20 p-3 text-sm text-ink">
          {passkeyFailureMessage(signIn.error, 'Could not sign in with a passkey. Please try again.')}
        </p>
      ) : null}
      <button
        type="button"
        className={buttonClassName('secondary', 'md', 'w-full')}
        disabled={signIn.isPending}
        onClick={() => signIn.mutate()}
      >
        {signIn.isPending ? 'Waiting for your passkey...' : 'Sign in with a passkey'}
      </button>
    </div>
  );
}
