import { bootHomeMap } from './boot/home-map-boot.ts';

/*
 * The home page's only script (vite.config.ts puts it in dist/index.html in place of the app's): the map's first frame
 * is drawn with the engine alone, then the app (src/main.tsx) loads and takes the map over. Every other page loads the
 * app directly; here too when the map cannot boot.
 */
const loadApp = () => void import('./main.tsx');
let booted = false;
try {
  booted = bootHomeMap(loadApp);
} catch (error) {
  // A map that cannot boot is made by the app, as on a page without boot.
  console.error(error);
}
if (!booted) loadApp();
