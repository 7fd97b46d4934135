export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown> };
}

/** Joins several services' documents into one (paths and component schemas; ids are unique across contracts). */
export function mergeOpenApi(documents: OpenApiDocument[], title: string): OpenApiDocument {
  const merged: OpenApiDocument = {
    openapi: documents[0]?.openapi ?? '3.1.0',
    info: { title, version: '1.0.0', description: 'Every public endpoint of the site, as served through the gateway.' },
    paths: {},
    components: { schemas: {} },
  };
  for (const doc of documents) {
    Object.assign(merged.paths, doc.paths);
    Object.assign(merged.components!.schemas!, doc.components?.schemas ?? {});
  }
  merged.paths = Object.fromEntries(Object.entries(merged.paths).sort(([a], [b]) => a.localeCompare(b)));
  merged.components!.schemas = Object.fromEntries(Object.entries(merged.components!.schemas!).sort(([a], [b]) => a.localeCompare(b)));
  return merged;
}
