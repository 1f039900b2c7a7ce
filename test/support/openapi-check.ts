/**
 * Every answer an integration test receives, held to the OpenAPI document (src/openapi.ts): the
 * operation must list the status, a JSON body must match the schema the document gives for that
 * status (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it; an error's `code` must be one of the
 * codes the operation lists for that status), an answer described without a body must have none,
 * and the headers the document says are always sent must be there. A method a documented path does
 * not have must answer 405 with `Allow` naming the methods it has (or 404, where every operation of
 * the path may be left unmounted, as `/docs` and `/metrics` are). Requests for no documented path
 * (an unknown route, the built browser apps, a route a test mounts itself) are not checked.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { apiDocument } from '../../src/openapi';

/** Where the API is served again when API_PREFIX is elsewhere (src/http-app.ts). */
const STOREFRONT_API_BASE = '/v2-api';
const DOC_ID = 'https://catalog.invalid/openapi.json';

type ResponseObject = { content?: Record<string, { schema?: unknown }>; headers?: Record<string, { required?: boolean }> };
type Operation = { method: string; path: string; pattern: RegExp; params: number; responses: Record<string, ResponseObject> };

interface Checker {
  operations: Operation[];
  validator(op: Operation, status: string): ValidateFunction;
}

const checkers = new Map<string, Checker>();

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function checkerFor(apiPrefix: string): Checker {
  const known = checkers.get(apiPrefix);
  if (known) return known;
  const doc = JSON.parse(JSON.stringify(apiDocument(apiPrefix))) as { paths: Record<string, Record<string, { responses: Record<string, ResponseObject> }>> };
  // The OpenAPI keywords a schema may carry (`example`) are not JSON Schema's: not strict.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const operations = Object.entries(doc.paths)
    .flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        params: (path.match(/\{/g) ?? []).length,
        responses: op.responses,
      })),
    )
    // A path without a template wins over one with (`/goods/tree` over `/goods/{id}`).
    .sort((a, b) => a.params - b.params);
  const compiled = new Map<string, ValidateFunction>();
  const checker: Checker = {
    operations,
    validator(op, status) {
      const key = `${op.method} ${op.path} ${status}`;
      let v = compiled.get(key);
      if (!v) {
        v = ajv.compile({ $ref: `${DOC_ID}#/${pointer('paths', op.path, op.method.toLowerCase(), 'responses', status, 'content', 'application/json', 'schema')}` });
        compiled.set(key, v);
      }
      return v;
    },
  };
  checkers.set(apiPrefix, checker);
  return checker;
}

export interface Received {
  status: number;
  headers: Headers;
  /** the body as text */
  text: string;
  /** fetch followed a redirect: the answer is another resource's */
  redirected?: boolean;
}

const mediaMatches = (documented: string, sent: string) => documented === sent || (documented.endsWith('/*') && sent.startsWith(documented.slice(0, -1)));

/** What is wrong with an answer by the document, or null; `path` may carry a query. */
export function answerMismatch(apiPrefix: string, method: string, path: string, answer: Received): string | null {
  const m = method.toUpperCase();
  if (m === 'HEAD' || m === 'OPTIONS' || answer.redirected) return null;
  let pathname = path.split('?')[0]!.split('#')[0]!;
  if (apiPrefix !== STOREFRONT_API_BASE && (pathname === STOREFRONT_API_BASE || pathname.startsWith(`${STOREFRONT_API_BASE}/`))) {
    pathname = apiPrefix + pathname.slice(STOREFRONT_API_BASE.length);
  }
  const checker = checkerFor(apiPrefix);
  const op = checker.operations.find((o) => o.method === m && o.pattern.test(pathname));
  if (!op)
    return otherMethod(
      checker.operations.filter((o) => o.pattern.test(pathname)),
      m,
      path,
      answer,
    );
  const where = `${m} ${path} → ${answer.status} (${op.method} ${op.path})`;
  const status = String(answer.status);
  const documented = op.responses[status];
  if (!documented) return `${where}: the document lists ${Object.keys(op.responses).join(', ')}; body ${answer.text.slice(0, 300)}`;
  const type = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!documented.content) {
    if (answer.text !== '') return `${where}: the document describes no body, the answer has one (${type}): ${answer.text.slice(0, 300)}`;
  } else if (answer.text !== '' || answer.status !== 304) {
    const media = Object.keys(documented.content);
    if (!media.some((d) => mediaMatches(d, type))) return `${where}: answered ${type || 'no content type'}, the document says ${media.join(', ')}`;
    if (type === 'application/json') {
      const validate = checker.validator(op, status);
      if (!validate(JSON.parse(answer.text)))
        return `${where}: the body does not match the document: ${JSON.stringify(validate.errors?.slice(0, 5))}; body ${answer.text.slice(0, 500)}`;
    }
  }
  for (const [name, header] of Object.entries(documented.headers ?? {})) {
    const present = name.toLowerCase() === 'set-cookie' ? answer.headers.getSetCookie().length > 0 : answer.headers.has(name);
    if (header.required && !present) return `${where}: the document says it always carries ${name}; it does not`;
  }
  return null;
}

/** The codes an operation lists for a status, from its Error schema narrowed to them (src/platform/http/openapi.ts). */
function codesOf(op: Operation, status: string): string[] {
  const schema = op.responses[status]?.content?.['application/json']?.schema as { allOf?: { properties?: any }[] } | undefined;
  return schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum ?? [];
}

/** A method the path's operations do not have: 405 with their methods in `Allow`, or 404 where none of them need be mounted. */
function otherMethod(atPath: Operation[], method: string, path: string, answer: Received): string | null {
  if (atPath.length === 0) return null;
  const where = `${method} ${path} → ${answer.status} (no ${method} among ${atPath.map((o) => o.method).join(', ')} ${atPath[0]!.path})`;
  const code = answer.text.startsWith('{') ? (JSON.parse(answer.text) as { error?: { code?: string } }).error?.code : undefined;
  if (answer.status === 404 && code === 'NOT_FOUND' && atPath.every((o) => codesOf(o, '404').includes('NOT_FOUND'))) return null;
  if (answer.status !== 405 || code !== 'REQUEST.METHOD_NOT_ALLOWED') return `${where}: expected 405 REQUEST.METHOD_NOT_ALLOWED; body ${answer.text.slice(0, 300)}`;
  const methods = new Set(atPath.map((o) => o.method));
  if (methods.has('GET')) methods.add('HEAD');
  const allow = (answer.headers.get('allow') ?? '').split(',').map((x) => x.trim());
  if ([...allow].sort().join() !== [...methods].sort().join()) return `${where}: Allow says ${allow.join(', ')}, the document has ${[...methods].join(', ')}`;
  return null;
}

/** Throws (failing the test) when the answer is not what the document says. */
export function expectDocumented(apiPrefix: string, method: string, path: string, answer: Received): void {
  const wrong = answerMismatch(apiPrefix, method, path, answer);
  if (wrong) throw new Error(`The answer differs from the OpenAPI document: ${wrong}`);
}
