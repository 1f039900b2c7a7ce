/**
 * The service's OpenAPI description: every slice's documented operations (each declared next to its
 * routes, with the schemas they parse) in one document. Served at /docs in development
 * (src/main.ts) and written by `catalog openapi` (src/cli.ts).
 */
import { authRouteDocs } from './auth/routes';
import { categoryRouteDocs } from './catalog/categories/routes';
import { countryRouteDocs } from './catalog/countries/routes';
import { familyRouteDocs } from './catalog/families/routes';
import { goodRouteDocs } from './catalog/goods/routes';
import { bulkRouteDocs } from './catalog/bulk/routes';
import { historyRouteDocs } from './catalog/history/routes';
import { linkRouteDocs } from './catalog/links/routes';
import { organiseRunRouteDocs } from './catalog/organisation/routes';
import { overviewRouteDocs } from './catalog/overview/routes';
import { positionRouteDocs } from './catalog/positions/routes';
import { tagGroupRouteDocs } from './catalog/tag-groups/routes';
import { tagRouteDocs } from './catalog/tags/routes';
import { healthRouteDocs } from './platform/http/health';
import { docsRouteDocs, openApiDocument, type DocumentedRoutes } from './platform/http/openapi';
import { metricsRouteDocs } from './platform/metrics';
import { projectionRouteDocs } from './platform/projections/routes';
import { storefrontRouteDocs } from './storefront/routes';
import { syncRouteDocs } from './sync/routes';
import { uploadRouteDocs } from './uploads/routes';
import { homeRouteDocs } from './web-apps';

export const DOCUMENTED_ROUTES: DocumentedRoutes = {
  api: [
    ...storefrontRouteDocs,
    ...authRouteDocs,
    ...uploadRouteDocs,
    ...docsRouteDocs,
    ...projectionRouteDocs,
    ...syncRouteDocs,
    ...linkRouteDocs,
    ...categoryRouteDocs,
    ...countryRouteDocs,
    ...tagGroupRouteDocs,
    ...tagRouteDocs,
    ...positionRouteDocs,
    ...organiseRunRouteDocs,
    ...familyRouteDocs,
    ...goodRouteDocs,
    ...bulkRouteDocs,
    ...historyRouteDocs,
    ...overviewRouteDocs,
  ],
  root: [...homeRouteDocs, ...healthRouteDocs, ...metricsRouteDocs],
};

const DESCRIPTION = [
  'The catalog service: supplier links, product families with a five-dimension price matrix, goods, and the public storefront reads.',
  'Paths include API_PREFIX; the health checks and /metrics stay at the root. When API_PREFIX is not /v2-api the API is served there as well.',
  'Admin routes need the `svc_at` cookie or `Authorization: Bearer` of an administrator. Errors answer `{error: {code, message, details?}}`.',
].join(' ');

/** The document for a service mounted under `apiPrefix` (API_PREFIX). */
export function apiDocument(apiPrefix: string) {
  return openApiDocument(DOCUMENTED_ROUTES, { title: 'Catalog service', version: '0.1.0', apiPrefix, description: DESCRIPTION });
}
