import type { Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';

/**
 * What a browser gets is a production build, whatever NODE_ENV the shell has: Vite keeps a NODE_ENV
 * it finds set, and React then bundles its development build (about twice the size, and slower) with
 * JSX compiled for it. Jest sets NODE_ENV=test for the build of its global set-up, and a developer
 * may start the service with NODE_ENV=development; neither may reach the clients that `npm start`
 * serves afterwards (scripts/build-clients.js keeps a build while its sources are the same).
 * Vite reads NODE_ENV for the build after loading the configuration, so setting it here holds.
 */
export function productionBuild(command: 'build' | 'serve'): void {
  if (command === 'build') process.env.NODE_ENV = 'production';
}

/**
 * Next to each asset, its gzip and brotli forms (`.gz`, `.br`), made once at build time: the service
 * sends the smallest one the browser accepts (src/web-apps.ts). A shopper on a slow mobile network
 * waits for the storefront's script before anything but the skeleton shows, and compressed it is
 * about a third of the bytes. Files under 1 KB, or that would not shrink, are left as they are.
 */
export function compressedAssets(): Plugin[] {
  return [compression({ algorithms: ['gzip', 'brotliCompress'], include: /\.(js|css|svg|json|txt|map)$/, threshold: 1024, skipIfLargerOrEqual: true, logLevel: 'silent' })];
}
