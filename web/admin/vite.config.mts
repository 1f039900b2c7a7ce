import { defineConfig } from 'vite';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compressedAssets, productionBuild } from '../production-build.mts';

const here = path.dirname(fileURLToPath(import.meta.url));

// Served by the service (and behind the proxy) under /admin/. The API base comes from
// VITE_API_BASE at build time: '' (same origin, root) by default, `/api` behind the proxy.
export default defineConfig(({ command }) => {
  productionBuild(command);
  return {
    root: here,
    base: '/admin/',
    envPrefix: 'VITE_',
    oxc: { jsx: { runtime: 'automatic' } },
    plugins: [compressedAssets()],
    build: { outDir: path.resolve(here, '../../dist/web/admin'), emptyOutDir: true },
  };
});
