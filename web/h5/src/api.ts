import { apiBase } from '../../shared/api-base';
import { createHttp } from '../../shared/http';

/** The V2 storefront's API base: announced by the serving process, else VITE_H5_API_BASE, else /v2-api (docs/api.md, Deployments and proxy prefixes). */
export const API_BASE: string = apiBase(import.meta.env.VITE_H5_API_BASE ?? '/v2-api');
export const api = createHttp(API_BASE);
