import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

// ARCHITECTURE.md names the setting SITE_NAME; Vite only exposes VITE_* variables to the client,
// so SITE_NAME is forwarded when VITE_SITE_NAME is not set explicitly.
const forwardedSiteName =
  process.env.VITE_SITE_NAME === undefined && process.env.SITE_NAME
    ? { 'import.meta.env.VITE_SITE_NAME': JSON.stringify(process.env.SITE_NAME) }
    : {};

export default defineConfig({
  plugins: [react(), tailwindcss()],
  define: forwardedSiteName,
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false },
    },
  },
});
