import { apiBase } from '../../shared/api-base';
import { createHttp } from '../../shared/http';

/** The V2 storefront's API base: announced by the serving process, else VITE_H5_API_BASE, else /v2-api (docs/api.md, Deployments and proxy prefixes). */
export const API_BASE: string = apiBase(import.meta.env.VITE_H5_API_BASE ?? '/v2-api');
/** A read a poor network leaves unanswered for this long counts as failed, and is retried (common/retrier.ts). */
const READ_TIMEOUT_MS = 15_000;
export const api = createHttp(API_BASE, { timeoutMs: READ_TIMEOUT_MS });
