import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, dataOf } from '../../api/client.ts';
import { ADMIN_API_PREFIX } from '../../api/queries.ts';
import { buttonClassName } from '../../components/button-styles.ts';
import { addPasskey, passkeyFailureMessage } from './passkey-ceremony.ts';

export const adminPasskeysQuery = () =>
  queryOptions({ queryKey: [`${ADMIN_API_PREFIX}passkeys`], queryFn: () => dataOf(api.GET('/api/admin/passkeys')) });

/** /admin 'Passkeys': how many this admin has, and 'Add a passkey' (this device's, or a security key). */
export function PasskeysSection() {
  const queryClient = useQueryClient();
  const passkeys = useQuery(adminPasskeysQuery());
  const add = useMutation({
    mutationFn: addPasskey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPasskeysQuery().queryKey }),
  });
  const count = passkeys.data?.passkeys.length;
  return (
    <div className="grid gap-4">
      <p className="text-ink-muted">
        {count === undefined
          ? 'A passkey signs you in without a password, even while someone is guessing it.'
          : count === 0
            ? 'You have no passkey yet. A passkey signs you in without a password, even while someone is guessing it.'
            : `You have ${count} ${count === 1 ? 'passkey' : 'passkeys'}.`}
      </p>
      {add.isSuccess ? (
        <p role="status" className="text-ink">
          Passkey added.
        </p>
      ) : null}
      {add.isError ? (
        <p role="alert" className="border-2 border-danger-edge bg-danger/20 p-3 text-sm text-ink">
          {passkeyFailureMessage(add.error, 'Could not add the passkey. Please try again.')}
        </p>
      ) : null}
      <div>
        <button type="button" className={buttonClassName('secondary', 'sm')} disabled={add.isPending} onClick={() => add.mutate()}>
          {add.isPending ? 'Waiting for your passkey...' : 'Add a passkey'}
        </button>
      </div>
    </div>
  );
}
