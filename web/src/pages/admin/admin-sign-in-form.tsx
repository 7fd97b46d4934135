import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { adminLoginRequestSchema, adminMeResponseSchema, type AdminLoginRequest } from '@pixel-atlas/contracts/admin';
import { buttonClassName } from '../../components/button-styles.ts';
import { TextField } from '../../components/form-field.tsx';
import { api } from '../../api/client.ts';
import { errorMessageForDisplay, errorStatus } from '../../api/errors.ts';
import { adminMeQuery } from '../../api/queries.ts';
import { firstErrorPerField, type FieldErrors } from '../../lib/field-errors.ts';
import { PasskeyLink } from '../../features/admin-auth/passkey-link.tsx';
import { PasskeySignIn } from '../../features/admin-auth/passkey-sign-in.tsx';

function signInFailureMessage(error: unknown): string {
  const fallback = errorStatus(error) === 401 ? 'Invalid username or password' : 'Could not sign in. Please try again.';
  return errorMessageForDisplay(error, fallback);
}

export function AdminSignInForm() {
  const queryClient = useQueryClient();
  const [credentials, setCredentials] = useState<AdminLoginRequest>({ username: '', password: '' });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<AdminLoginRequest>>({});

  const signIn = useMutation({
    mutationFn: async (request: AdminLoginRequest) => (await api.POST('/api/admin/login', { body: request })).data,
    onSuccess: async (response) => {
      const me = adminMeResponseSchema.safeParse(response);
      // Use the login reply when it already says who signed in; otherwise ask the server.
      if (me.success) queryClient.setQueryData(adminMeQuery().queryKey, me.data);
      else await queryClient.invalidateQueries({ queryKey: adminMeQuery().queryKey });
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (signIn.isPending) return;
    const parsed = adminLoginRequestSchema.safeParse(credentials);
    if (!parsed.success) {
      setFieldErrors(firstErrorPerField(parsed.error));
      return;
    }
    setFieldErrors({});
    signIn.mutate(parsed.data);
  };

  const update = (field: keyof AdminLoginRequest, value: string) => {
    setCredentials((current) => ({ ...current, [field]: value }));
    setFieldErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  };

  return (
    <>
      <PasskeyLink />
      <form noValidate onSubmit={submit} aria-labelledby="admin-sign-in-heading" className="pixel-panel mx-auto grid max-w-md gap-5 p-6">
        <h2 id="admin-sign-in-heading" className="text-sm text-gold">
          Admin sign in
        </h2>
        <TextField
          id="admin-username"
          label="Username"
          error={fieldErrors.username}
          name="username"
          autoComplete="username"
          value={credentials.username}
          onValueChange={(value) => update('username', value)}
        />
        <TextField
          id="admin-password"
          label="Password"
          error={fieldErrors.password}
          name="password"
          type="password"
          autoComplete="current-password"
          value={credentials.password}
          onValueChange={(value) => update('password', value)}
        />
        {signIn.isError ? (
          <p role="alert" className="border-2 border-danger-edge bg-danger/20 p-3 text-sm text-ink">
            {signInFailureMessage(signIn.error)}
          </p>
        ) : null}
        <button type="submit" className={buttonClassName('primary', 'md', 'w-full')} disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in...' : 'Sign in'}
        </button>
        <PasskeySignIn />
      </form>
    </>
  );
}
