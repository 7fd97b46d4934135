/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Product name shown wherever the spec says "the product name"; defaults to Pixel Atlas. */
  readonly VITE_SITE_NAME?: string;
  /** Optional support address shown beside the contact form on the legal pages. */
  readonly VITE_SUPPORT_EMAIL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
