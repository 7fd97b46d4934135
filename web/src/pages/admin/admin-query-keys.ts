/** Query key of the signed-in admin; data is null when nobody is signed in. */
export const ADMIN_ME_QUERY_KEY = ['/api/admin/me'] as const;

/** Every admin-only query starts with this URL prefix, so sign-out can drop them all. */
export const ADMIN_API_PREFIX = '/api/admin/';
