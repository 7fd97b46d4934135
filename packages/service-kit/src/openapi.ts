export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  servers?: Array<{ url: string; description?: string }>;
  security?: Array<Record<string, string[]>>;
  paths: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
}

const ADMIN_SESSION_SCHEME = 'adminSession';

/**
 * `schema.security` of every admin operation: the gateway lets a request through to `/api/admin/*` only with a live
 * session cookie, and answers 401 without one.
 */
export const ADMIN_SESSION_SECURITY = [{ [ADMIN_SESSION_SCHEME]: [] }];

/** Declared in every service's document (`createServiceApp`), so operations can name them in `schema.security`. */
export const API_SECURITY_SCHEMES = {
  [ADMIN_SESSION_SCHEME]: {
    type: 'apiKey' as const,
    in: 'cookie' as const,
    name: 'pa_admin',
    description:
      'The admin session, set by `POST /api/admin/login` (httpOnly, SameSite=Strict; named `__Host-pa_admin` when the site is ' +
      'served over https). State-changing admin requests from another site are refused with 403.',
  },
};

/** Every `$ref` inside a value, as the component names it points at. */
function referencedSchemas(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) referencedSchemas(item, found);
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
        found.add(child.slice('#/components/schemas/'.length));
      } else {
        referencedSchemas(child, found);
      }
    }
  }
}

/**
 * Only the component schemas the paths use, directly or through other schemas. A service's document carries every
 * schema registered in its process, including request schemas' output forms and response schemas' input forms.
 */
function usedSchemas(paths: Record<string, unknown>, schemas: Record<string, unknown>): Record<string, unknown> {
  const used = new Set<string>();
  referencedSchemas(paths, used);
  for (let pending = [...used]; pending.length > 0;) {
    const reached = new Set<string>();
    for (const name of pending) referencedSchemas(schemas[name], reached);
    pending = [...reached].filter((name) => !used.has(name));
    for (const name of pending) used.add(name);
  }
  return Object.fromEntries([...used].sort((a, b) => a.localeCompare(b)).map((name) => [name, schemas[name]]));
}

/**
 * The public API document: every service's paths, as served through the gateway on this origin, with the admin
 * session declared as a security scheme (operations are open unless they name it) and only the schemas in use.
 */
export function mergeOpenApi(documents: OpenApiDocument[], title: string): OpenApiDocument {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  const securitySchemes: Record<string, unknown> = {};
  for (const doc of documents) {
    Object.assign(paths, doc.paths);
    Object.assign(schemas, doc.components?.schemas ?? {});
    Object.assign(securitySchemes, doc.components?.securitySchemes ?? {});
  }
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: documents[0]?.openapi ?? '3.1.0',
    info: { title, version: '1.0.0', description: 'Every public endpoint of the site, as served through the gateway.' },
    servers: [{ url: '/', description: 'The origin serving this document' }],
    security: [],
    paths: sortedPaths,
    components: { schemas: usedSchemas(sortedPaths, schemas), securitySchemes },
  };
}
