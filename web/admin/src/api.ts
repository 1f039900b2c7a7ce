import { apiBase } from '../../shared/api-base';
import { createHttp } from '../../shared/http';

/** Announced by the serving process, else VITE_API_BASE at build time, else same origin (''). */
export const API_BASE: string = apiBase(import.meta.env.VITE_API_BASE ?? '');

let onLoggedOut: () => void = () => undefined;
export const setOnLoggedOut = (f: () => void) => (onLoggedOut = f);

/** The admin client: cookies only; a 401 refreshes once and retries (README, Web clients). */
export const api = createHttp(API_BASE, { refresh: true, onUnauthenticated: () => onLoggedOut() });
