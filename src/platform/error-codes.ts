/**
 * Every error code the service can answer (`{"error": {"code", …}}`, docs/api.md, Errors), with the
 * status it answers with and what it means, in one place. `AppError`'s code is typed on this list,
 * so a code cannot be thrown before it is registered here; the OpenAPI document lists the codes
 * (src/platform/http/openapi.ts), and the admin client keeps a text for each
 * (web/admin/src/common/error-text.ts, held to this list by test/unit/web/error-text.test.ts).
 *
 * A code answers with its status (only `BAD_REQUEST` carries another 4xx, outside the API, for the
 * web apps' files): the OpenAPI document lists each operation's codes under their statuses
 * (src/platform/http/openapi.ts), and a 500 answers `INTERNAL` whatever code raised it
 * (src/platform/http/errors.ts).
 */
export const ERROR_CODES = {
  // The request itself
  VALIDATION_FAILED: { status: 400, description: 'The body, query or parameters do not have the documented shape; `details` lists each issue with its `path`.' },
  INVALID_ID: { status: 400, description: 'An id in the path or query is not a decimal 64-bit integer (a run id: not a UUID).' },
  INVALID_IF_MATCH: { status: 400, description: '`If-Match` does not carry a revision as answered.' },
  MALFORMED_JSON: { status: 400, description: 'The body is not valid JSON.' },
  BAD_REQUEST: {
    status: 400,
    description:
      "A client fault found while reading the request: a path parameter that is not percent-decodable, a body shorter or longer than its `Content-Length` (400); the web apps' files answer the 4xx of their fault with it (412, 416).",
  },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The body is larger than `BODY_LIMIT`.' },
  UNSUPPORTED_ENCODING: { status: 415, description: 'The body has a content encoding or charset the service does not read.' },
  'REQUEST.INVALID_TEXT': { status: 400, description: 'A NUL character or a lone surrogate in the path, query or body; `details.path` names where.' },
  'REQUEST.CROSS_ORIGIN': { status: 403, description: 'A write from another origin than this service or `CORS_ORIGINS`.' },
  'REQUEST.UNSUPPORTED_MEDIA_TYPE': { status: 415, description: 'A write body that is not `application/json`.' },
  'REQUEST.METHOD_NOT_ALLOWED': { status: 405, description: 'The path has no operation with this method; `Allow` lists the methods it has (so does `details.allowed`).' },
  'IDEMPOTENCY.BAD_KEY': { status: 400, description: '`Idempotency-Key` is not 1 to 200 visible ASCII characters.' },
  'IDEMPOTENCY.KEY_REUSED': { status: 422, description: 'The `Idempotency-Key` was used for another request.' },
  'IDEMPOTENCY.IN_PROGRESS': { status: 409, description: 'A request with the same `Idempotency-Key` is still being answered.' },
  RATE_LIMITED: { status: 429, description: 'Too many login, registration or upload requests; `Retry-After` says when to try again.' },
  NOT_FOUND: {
    status: 404,
    description: 'No such path (or one this configuration does not mount: `/docs` outside development, `/metrics` without `METRICS_TOKEN`), or no such uploaded file.',
  },
  INTERNAL: { status: 500, description: 'An unexpected failure, whatever raised it; the log has it, with its own code, under the request id.' },
  DEPENDENCY_UNAVAILABLE: { status: 503, description: 'The database is unavailable for a moment; try again (`Retry-After`).' },

  // Sign-in
  'AUTH.UNAUTHENTICATED': { status: 401, description: 'No valid access token (or refresh cookie).' },
  'AUTH.INVALID_CREDENTIALS': { status: 401, description: 'Unknown user or wrong password.' },
  'AUTH.FORBIDDEN': { status: 403, description: "The user's role may not use the route." },
  'AUTH.REGISTRATION_CLOSED': { status: 403, description: 'A user exists: registration is closed.' },
  'METRICS.UNAUTHORIZED': { status: 401, description: '`/metrics` without the scrape token.' },
  'USER.NOT_FOUND': { status: 404, description: 'The command line names no existing user.' },
  'USER.PASSWORD_REFUSED': { status: 400, description: 'The command line refused a new password (too short, the two entries differ, no terminal).' },
  'USER.CANCELLED': { status: 400, description: "The command line's password prompt was cancelled." },
  'USER.LAST_USER': { status: 409, description: 'The command line keeps the last user unless told `--force`.' },

  // Money and references
  'MONEY.INVALID': { status: 400, description: 'Not a decimal amount.' },
  'MONEY.TOO_PRECISE': { status: 400, description: 'An amount with more decimals than allowed.' },
  UNKNOWN_REFERENCE: {
    status: 400,
    description:
      'An id in the body (or a query id naming what to work on) names nothing: a category, country, tag, tag group, good or link; `details.field` names the field (`goods.2.categoryId`) and `details.missing` the ids.',
  },

  // History
  'HISTORY.QUERY_INVALID': { status: 400, description: 'A history query mixes `at` with `from`/`to`, gives one of `from` and `to` alone, or pages a snapshot.' },
  'HISTORY.RANGE_INVALID': { status: 400, description: 'A history range whose `from` is after its `to`.' },

  // Links (origin goods) and their tags
  'ORIGIN_GOOD.NOT_FOUND': { status: 404, description: 'No such link (origin good).' },
  'ORIGIN_GOOD.UNPARSEABLE': { status: 400, description: "The link's name does not follow the naming rule, so its tags cannot be derived." },
  'TAGS.NOT_A_DIMENSION': { status: 400, description: "A link's tags must belong to a tag group with a dimension." },
  'TAGS.NOT_A_PERMUTATION': { status: 400, description: 'The new tag order does not list every tag exactly once.' },

  // Goods
  'GOOD.NOT_FOUND': { status: 404, description: 'No such good.' },
  'GOOD.EXISTS': { status: 409, description: 'A good with this id exists.' },
  'GOOD.EXISTS_FOR_LINK': { status: 409, description: 'The link has a good already; `details.goodId` names it.' },
  'GOOD.NAME_REQUIRED': { status: 400, description: 'A custom good needs a name.' },
  'GOOD.PRIMARY_AS_SECONDARY': { status: 400, description: "The good's primary link cannot also be a merged one." },
  'PUBLIC_GOOD.NOT_FOUND': { status: 404, description: 'No public good (family) with this id.' },

  // Families
  'FAMILY.NOT_FOUND': { status: 404, description: 'No such family.' },
  'FAMILY.EXISTS': { status: 409, description: 'A family with this id exists.' },
  'FAMILY.GONE': { status: 409, description: 'The family was deleted or merged and takes no members; `details.intoFamilyId` names the family it was merged into.' },
  'FAMILY.NO_GOODS': { status: 409, description: 'A bulk change of country, category or tags names a family without goods: there is nothing to change (an item skipped with it).' },
  'FAMILY.NOT_EMPTY': { status: 409, description: 'The family still has members or goods; `details` counts them.' },
  'FAMILY.MEMBER_NOT_FOUND': { status: 404, description: 'The link is not a member of the family.' },
  'FAMILY.CUSTOM_MEMBER_NOT_FOUND': { status: 404, description: 'The good is not a custom member of the family.' },
  'FAMILY.NOT_A_CUSTOM_GOOD': { status: 400, description: 'Only a custom good (without a link) can be a custom member.' },
  'FAMILY.OVERRIDE_KEY_INVALID': { status: 400, description: "An override names a cell the family's price matrix does not have." },
  'FAMILY.OVERRIDE_NOT_FOUND': { status: 404, description: 'No override with that key.' },

  // Vocabulary: categories, countries, tags, tag groups, positions
  'CATEGORY.NOT_FOUND': { status: 404, description: 'No such category.' },
  'CATEGORY.ALREADY_EXISTS': { status: 409, description: 'A category with this id exists.' },
  'CATEGORY.PARENT_CYCLE': { status: 400, description: 'The parent is the category itself or lies under it.' },
  'CATEGORY.HAS_CHILDREN': { status: 409, description: 'The category still has subcategories; `details.childCount` counts them.' },
  'CATEGORY.IN_USE': { status: 409, description: 'Goods or links still use the category; `details` holds its usage `{counts, blockedBy}`.' },
  'CATEGORIES.NOT_A_PERMUTATION': { status: 400, description: 'The new order does not list every child of the parent exactly once.' },
  'COUNTRY.NOT_FOUND': { status: 404, description: 'No such country.' },
  'COUNTRY.ALREADY_EXISTS': { status: 409, description: 'A country with this id exists.' },
  'COUNTRY.IN_USE': { status: 409, description: 'Goods or links still use the country; `details` holds its usage `{counts, blockedBy}`.' },
  'COUNTRY.CODE_TAKEN': { status: 409, description: 'Another country has this code; `details.countryId` names it.' },
  'COUNTRIES.NOT_A_PERMUTATION': { status: 400, description: 'The new order does not list every country exactly once.' },
  'TAG.NOT_FOUND': { status: 404, description: 'No such tag.' },
  'TAG.ALREADY_EXISTS': { status: 409, description: 'A tag with this id exists.' },
  'TAG.IN_USE': { status: 409, description: 'Goods or links still carry the tag; `details` holds its usage `{counts, blockedBy}`.' },
  'TAG.NAME_TAKEN': { status: 409, description: 'The tag group has a tag of this name.' },
  'TAG_GROUP.NOT_FOUND': { status: 404, description: 'No such tag group.' },
  'TAG_GROUP.ALREADY_EXISTS': { status: 409, description: 'A tag group with this id or name exists.' },
  'TAG_GROUP.DIMENSION_TAKEN': { status: 409, description: 'Another tag group carries this dimension; `details.tagGroupId` names it.' },
  'TAG_GROUP.HAS_TAGS': { status: 409, description: 'The tag group still has tags; `details.tagCount` counts them.' },
  'POSITION.NOT_FOUND': { status: 404, description: 'No such position.' },
  'POSITION.ALREADY_EXISTS': { status: 409, description: 'A position with this id exists.' },
  'POSITION.DUPLICATE_GOODS': { status: 400, description: 'A good appears twice in one position.' },

  // Writes, the event log and the read models
  'EVENT_STORE.WRONG_REVISION': { status: 409, description: 'The resource changed since the revision the write was based on.' },
  'EVENT_STORE.BUSY': { status: 409, description: 'The resource is changing too often for this write to land; try again.' },
  'EVENT_STORE.DUPLICATE_EVENT_ID': { status: 409, description: 'An event id of the append exists elsewhere.' },
  'EVENT_STORE.UNAVAILABLE': { status: 503, description: 'The event store is unavailable for a moment.' },
  'EVENT.INVALID': { status: 500, description: 'An event does not match its schema (a defect).' },
  'EVENT.UNKNOWN_TYPE': { status: 500, description: 'An event type this code does not know (a defect).' },
  'EVENT.UNKNOWN_VERSION': { status: 500, description: 'An event version newer than this code.' },
  'LOCK.BUSY': { status: 409, description: 'Another administrator is changing the same thing; try again.' },
  'LOCK.LOST': { status: 503, description: 'A lock was lost with its database connection; the operation stopped.' },
  'PROJECTION.NOT_FOUND': { status: 404, description: 'No projection of that name.' },
  'PROJECTION.BEHIND': { status: 503, description: 'The read models a rule is checked against are behind; try again shortly.' },
  'PROJECTION.FAILED': { status: 503, description: 'A projection stopped on an event it cannot apply: the change is recorded but not shown.' },
  'PROJECTION.WORKER_RUNNING': { status: 409, description: 'A worker leads projections: `rebuild --all` refuses.' },

  // Organisation and synchronisation
  'JOBS.UNAVAILABLE': { status: 503, description: 'The thread that runs long operations (organisation, synchronisation) is restarting or the service is stopping; try again.' },
  'ORGANISE.ALREADY_RUNNING': { status: 409, description: 'An organisation run is going.' },
  'ORGANISE.PROJECTIONS_BEHIND': { status: 503, description: 'The catalog read model did not catch up; the run stopped.' },
  'BULK.RUN_NOT_FOUND': { status: 404, description: 'No such bulk run.' },
  'BULK.TOO_MANY': { status: 400, description: 'The selection of a bulk change holds more items than it takes (20 000); narrow the filter.' },
  'ORGANISE.RUN_NOT_FOUND': { status: 404, description: 'No such organisation run.' },
  'SYNC.ALREADY_RUNNING': { status: 409, description: 'A synchronisation of that kind is going; `details.runId` names it.' },
  'SYNC.RUN_NOT_FOUND': { status: 404, description: 'No such synchronisation run.' },
  'UPSTREAM.MALFORMED': { status: 502, description: 'The supplier sent an answer that does not have its documented shape.' },
  'UPSTREAM.REJECTED': { status: 502, description: 'The supplier refused a request.' },
  'UPSTREAM.UNAVAILABLE': { status: 503, description: 'The supplier is unavailable.' },
  'UPSTREAM.PAGE_LIMIT': { status: 400, description: "A listing page size outside the supplier's limits." },
  'SIMULATOR.UNKNOWN_LINK': { status: 404, description: 'The supplier simulator has no such link.' },
  'SIMULATOR.UNKNOWN_CATEGORY': { status: 404, description: 'The supplier simulator has no such category.' },

  // Uploads
  'UPLOAD.FILE_REQUIRED': { status: 400, description: 'No file in the multipart field `file`.' },
  'UPLOAD.INVALID': { status: 400, description: 'A malformed multipart upload.' },
  'UPLOAD.MALFORMED': {
    status: 400,
    description: 'An upload body that is not readable multipart: a missing or mismatched boundary, a truncated or empty body, an oversized part header.',
  },
  'UPLOAD.TOO_LARGE': { status: 413, description: 'The file is larger than `UPLOAD_MAX_BYTES`.' },
  'UPLOAD.UNSUPPORTED_TYPE': { status: 415, description: 'Not a png, jpg, webp or gif image (judged by its bytes).' },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const errorCodes = (): ErrorCode[] => Object.keys(ERROR_CODES) as ErrorCode[];
