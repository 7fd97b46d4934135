/** A schema.org JSON-LD object (https://schema.org). */
export type JsonLdObject = { '@context'?: string; '@type': string } & Record<string, unknown>;

/**
 * Structured data for search engines, rendered by the screen itself (so the server's page carries it). No '<' inside:
 * a name like '</script>' cannot end the element early.
 */
export function JsonLd({ data }: { data: JsonLdObject }) {
  const json = JSON.stringify({ '@context': 'https://schema.org', ...data })
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: json }} />;
}
