import { render } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { StrictMode, type ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../app-providers.tsx';
import { createQueryClient } from '../lib/query-client.ts';

/** One component with the app's providers (query client, toaster, tooltips) and a router, under StrictMode. */
export function renderWithProviders(
  ui: ReactNode,
  { path = '/', queryClient = createQueryClient() }: { path?: string; queryClient?: QueryClient } = {},
) {
  const result = render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </AppProviders>
    </StrictMode>,
  );
  return { ...result, queryClient };
}

/** A promise whose settling the test controls (a request "in flight"). */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A 1x1 PNG as a File, for the avatar uploader. */
export function pngFile(name = 'avatar.png', size?: number): File {
  const bytes = Uint8Array.from(
    atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
    (c) => c.charCodeAt(0),
  );
  const file = new File([bytes], name, { type: 'image/png' });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
}
