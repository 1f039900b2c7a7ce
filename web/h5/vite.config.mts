import { defineConfig } from 'vite';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compressedAssets, productionBuild } from '../production-build.mts';

const here = path.dirname(fileURLToPath(import.meta.url));

// The V2 mobile storefront: base path /v2/h5 (docs/api.md, Deployments and proxy prefixes); API base from VITE_H5_API_BASE,
// default /v2-api (the service also answers there, see src/web/static.ts).
export default defineConfig(({ command }) => {
  productionBuild(command);
  return {
    root: here,
    base: '/v2/h5/',
    oxc: { jsx: { runtime: 'automatic' } },
    plugins: [compressedAssets()],
    build: { outDir: path.resolve(here, '../../dist/web/h5'), emptyOutDir: true },
  };
});
