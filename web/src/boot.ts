import { bootHomeMap } from './boot/home-map-boot.ts';

/*
 * The home page's only script (vite.config.ts puts it in dist/index.html in place of the app's): the map's first frame
 * is drawn with the engine alone, then the app (src/main.tsx) loads and takes the map over. Every other page loads the
 * app directly; here too when the map cannot boot.
 */
// In two tasks: React first (app-runtime.ts), then the app, each evaluated on its own (the app even if the first failed).
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
const loadApp = () => void import('./app-runtime.ts').then(nextTask, nextTask).then(() => import('./main.tsx'));
let booted = false;
try {
  booted = bootHomeMap(loadApp);
} catch (error) {
  // A map that cannot boot is made by the app, as on a page without boot.
  console.error(error);
}
if (!booted) loadApp();
