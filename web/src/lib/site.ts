/** The one place the product name is read; every screen imports it from here. */
export const SITE_NAME: string = import.meta.env.VITE_SITE_NAME ?? 'Pixel Atlas';

/** Only shown when the operator configures one; the contact form is always the primary channel. */
export const SUPPORT_EMAIL: string | undefined = import.meta.env.VITE_SUPPORT_EMAIL || undefined;
