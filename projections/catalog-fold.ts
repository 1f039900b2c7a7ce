/**
 * The catalog's link streams folded in SQL for a rebuild on the postgres log (SqlFold,
 * src/platform/projections/definition.ts): each origin_goods row is "the last event of each kind" of
 * its stream, so an INSERT … SELECT over es_events writes each link row once, and the details (most
 * of the log's bytes) never leave the server. The rebuild runs it range by range (a few thousand
 * streams each, its own transaction), so it never holds the log's readers back for longer than one
 * range. The rows are those applyLinkEvents (./catalog.ts)
 * writes; the rules it follows, here as SQL:
 *
 * - a link's stream counts from its first LinkMirrored in log order (events before it change nothing);
 * - from there an event applies only when its revision is above every revision before it in log
 *   order (the projection's revision guard), whatever its kind;
 * - of the applied events, the last of each kind gives its columns: the listing (LinkMirrored), the
 *   listing state (LinkDelisted/LinkRelisted), the detail (LinkDetailSynced), the parsed columns
 *   (LinkParsed, LinkOrganised with `parsed`), the tags (LinkTags*, LinkOrganised with `tags`), the
 *   family (LinkJoinedFamily/LinkLeftFamily, LinkOrganised with `familyId`), `updated_at` (every
 *   kind but LinkGoodAssigned/Unassigned) and the revision (every kind);
 * - `first_seen_at` is the first LinkMirrored's time.
 *
 * The mirror and detail hashes are contentHash (src/platform/content-hash.ts: sha256 of JSON with
 * sorted keys, base64url, 32 characters), written here for the two shapes the event schemas fix. A
 * value whose JSON text PostgreSQL would write otherwise than JavaScript (a number JavaScript writes
 * with an exponent, a key outside the Basic Multilingual Plane, whose order differs) gives NULL, and
 * those few rows are hashed in JavaScript afterwards. A log holding link events of an older version
 * is not folded (null): the replay upcasts them.
 */
import type { LogPosition } from '../src/platform/event-store/port';
import { contentHash } from '../src/platform/content-hash';
import { linkMirrorHash } from '../src/catalog/links/mirror';
import { linkEvents, type LinkMirrorData } from '../src/catalog/links/events';
import type { ProjectionDb, SqlFold } from '../src/platform/projections/definition';

/** A JSON number as JavaScript writes it, or NULL where it would use an exponent. */
const num = (v: string) =>
  `(CASE WHEN jsonb_typeof(${v}) = 'number' AND ((${v})::numeric = 0 OR abs((${v})::numeric) >= 0.000001 AND abs((${v})::numeric) < 1e21) THEN (${v})::text END)`;
/** A JSON string (jsonb writes strings escaped as JSON.stringify does), or NULL if it is not one. */
const str = (v: string) => `(CASE WHEN jsonb_typeof(${v}) = 'string' THEN (${v})::text END)`;
/** A string or null. */
const strOrNull = (v: string) => `(CASE WHEN jsonb_typeof(${v}) = 'null' THEN 'null' ELSE ${str(v)} END)`;
/**
 * An array's elements written by `element` (over `x`), in order; NULL if any is. (OFFSET 0: pulled
 * up, the element's expression would be copied into both aggregates and written twice.)
 */
const arr = (v: string, element: (x: string) => string) =>
  `(CASE WHEN jsonb_typeof(${v}) = 'array' THEN (SELECT CASE WHEN count(*) = count(t) THEN '[' || coalesce(string_agg(t, ',' ORDER BY o), '') || ']' END
      FROM (SELECT ${element('x')} AS t, o FROM jsonb_array_elements(${v}) WITH ORDINALITY AS a(x, o) OFFSET 0) e) END)`;
/** An object's members, written in the order of `keys` (sorted as JavaScript sorts them). */
const obj = (v: string, members: [string, (x: string) => string][]) =>
  `(CASE WHEN jsonb_typeof(${v}) = 'object' THEN '{' || ${members.map(([k, w], i) => `'${i ? ',' : ''}"${k}":' || ${w(`${v}->'${k}'`)}`).join(' || ')} || '}' END)`;
/** A record of strings: keys sorted (code points; NULL with a key outside the BMP, where JavaScript's order differs). */
const record = (v: string) =>
  `(CASE WHEN jsonb_typeof(${v}) = 'object' THEN (SELECT CASE WHEN bool_and(k !~ '[\\U00010000-\\U0010FFFF]' AND jsonb_typeof(val) = 'string') IS NOT FALSE
                THEN '{' || coalesce(string_agg(to_jsonb(k)::text || ':' || val::text, ',' ORDER BY k COLLATE "C"), '') || '}' END
      FROM jsonb_each(${v}) AS r(k, val)) END)`;
const hash = (text: string) => `left(translate(encode(sha256(convert_to(${text}, 'UTF8')), 'base64'), E'+/=\\n', '-_'), 32)`;

/** stableJson of a link detail (linkDetailSchema). */
const detailJson = (d: string) =>
  obj(d, [
    [
      'media',
      (v) =>
        arr(v, (x) =>
          obj(x, [
            ['color', str],
            ['sort', num],
            ['url', str],
          ]),
        ),
    ],
    [
      'options',
      (v) =>
        arr(v, (x) =>
          obj(x, [
            ['name', str],
            ['values', (w) => arr(w, str)],
          ]),
        ),
    ],
    [
      'packagingSpecs',
      (v) =>
        arr(v, (x) =>
          obj(x, [
            ['heightCm', num],
            ['lengthCm', num],
            ['name', str],
            ['weightGrams', num],
            ['widthCm', num],
          ]),
        ),
    ],
    ['sizeChart', (v) => arr(v, record)],
    [
      'variants',
      (v) =>
        arr(v, (x) =>
          obj(x, [
            ['color', str],
            ['price', str],
            ['size', str],
            ['sku', str],
            ['stock', num],
          ]),
        ),
    ],
  ]);

/** stableJson of a LinkMirrored's data without `supplierUpdatedAt` (linkMirrorHash). */
const mirrorJson = (m: string) =>
  obj(m, [
    ['categoryId', strOrNull],
    ['craftLabel', strOrNull],
    ['image', strOrNull],
    ['linkId', str],
    ['name', str],
    ['price', str],
    ['status', str],
  ]);

const LINK_TYPES = linkEvents.map((d) => d.type);
const CURRENT = linkEvents.map((d) => `('${d.type}', ${d.version})`).join(', ');

const FOLD_SQL = `
WITH ev AS MATERIALIZED (
  SELECT seq, tx_id, stream_id, revision, type FROM public.es_events
   WHERE stream_id LIKE 'link-%' AND stream_id > $4 AND ($5::text IS NULL OR stream_id <= $5)
     AND type = ANY($3::text[]) AND (tx_id < $1 OR (tx_id = $1 AND seq <= $2))
),
first_mirror AS (
  SELECT DISTINCT ON (stream_id) stream_id, tx_id, seq FROM ev WHERE type = 'LinkMirrored' ORDER BY stream_id, tx_id, seq
),
applied AS (
  SELECT stream_id, tx_id, seq, revision, type FROM (
    SELECT e.*, max(e.revision) OVER (PARTITION BY e.stream_id ORDER BY e.tx_id, e.seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
      FROM ev e JOIN first_mirror f USING (stream_id)
     WHERE (e.tx_id, e.seq) >= (f.tx_id, f.seq)
  ) s WHERE before IS NULL OR revision > before
),
kinds AS (
  SELECT a.stream_id, a.tx_id, a.seq, a.revision, k.kind
    FROM applied a
    LEFT JOIN LATERAL (SELECT x.data FROM public.es_events x WHERE a.type = 'LinkOrganised' AND x.seq = a.seq) o ON true
    CROSS JOIN LATERAL unnest(ARRAY[
      CASE WHEN a.type = 'LinkMirrored' THEN 'mirror' END,
      CASE WHEN a.type IN ('LinkDelisted', 'LinkRelisted') THEN 'listing' END,
      CASE WHEN a.type = 'LinkDetailSynced' THEN 'detail' END,
      CASE WHEN a.type = 'LinkParsed' OR o.data ? 'parsed' THEN 'parsed' END,
      CASE WHEN a.type IN ('LinkTagsDerived', 'LinkTagsRestored', 'LinkTagsTakenOver') OR o.data ? 'tags' THEN 'tags' END,
      CASE WHEN a.type IN ('LinkJoinedFamily', 'LinkLeftFamily') OR (o.data->>'familyId') IS NOT NULL THEN 'family' END,
      CASE WHEN a.type NOT IN ('LinkGoodAssigned', 'LinkGoodUnassigned') THEN 'updated' END,
      'revision'
    ]) AS k(kind)
   WHERE k.kind IS NOT NULL
),
last AS (
  SELECT stream_id,
         (array_agg(seq ORDER BY tx_id DESC, seq DESC) FILTER (WHERE kind = 'mirror'))[1] AS mirror,
         (array_agg(seq ORDER BY tx_id DESC, seq DESC) FILTER (WHERE kind = 'listing'))[1] AS listing,
         (array_agg(seq ORDER BY tx_id DESC, seq DESC) FILTER (WHERE kind = 'detail'))[1] AS detail,
         (array_agg(seq ORDER BY tx_id DESC, seq DESC) FILTER (WHERE kind = 'parsed'))[1] AS parsed,
         (array_agg(seq ORDER BY tx_id DESC, seq DESC) FILTER (WHERE kind = 'tags'))[1] AS tags,
         (array_agg(seq ORDER BY tx_id DESC, seq DESC) FILTER (WHERE kind = 'family'))[1] AS family,
         (array_agg(seq ORDER BY tx_id DESC, seq DESC) FILTER (WHERE kind = 'updated'))[1] AS updated,
         (array_agg(revision ORDER BY tx_id DESC, seq DESC) FILTER (WHERE kind = 'revision'))[1] AS revision
    FROM kinds GROUP BY stream_id
),
written AS (
INSERT INTO origin_goods (id, name, category_id, craft_label, price, image, status, supplier_updated_at, mirror_hash,
                          delisted, delisted_reason, detail, detail_hash, detail_synced_at, revision, first_seen_at, updated_at,
                          parsed_country, parsed_logistics, parsed_product_name, parsed_sku, family_name_key,
                          tags, tags_manual, tags_missing, family_id)
SELECT (m.data->>'linkId')::bigint, m.data->>'name', (m.data->>'categoryId')::bigint, m.data->>'craftLabel', (m.data->>'price')::numeric,
       m.data->>'image', m.data->>'status', (m.data->>'supplierUpdatedAt')::timestamptz,
       ${hash(mirrorJson('m.data'))},
       coalesce(li.type = 'LinkDelisted', false), CASE WHEN li.type = 'LinkDelisted' THEN li.data->>'reason' END,
       de.detail, CASE WHEN de.detail IS NOT NULL THEN ${hash(detailJson('de.detail'))} END, de.recorded_at,
       l.revision, fm.recorded_at, up.recorded_at,
       pa.p->>'country', pa.p->>'logistics', pa.p->>'productName', pa.p->>'sku', pa.p->>'familyNameKey',
       ta.data->'tags', coalesce(ta.type = 'LinkTagsTakenOver', false),
       CASE WHEN ta.data IS NULL THEN '[]'::jsonb
            ELSE to_jsonb(array_remove(ARRAY[CASE WHEN jsonb_array_length(ta.data->'tags'->'craft') = 0 THEN 'craft' END,
                                             CASE WHEN jsonb_array_length(ta.data->'tags'->'logistics') = 0 THEN 'logistics' END], NULL)) END,
       CASE WHEN fa.type = 'LinkLeftFamily' THEN NULL ELSE (fa.data->>'familyId')::bigint END
  FROM last l
  JOIN first_mirror f ON f.stream_id = l.stream_id
  JOIN public.es_events fm ON fm.seq = f.seq
  JOIN public.es_events m ON m.seq = l.mirror
  JOIN public.es_events up ON up.seq = l.updated
  LEFT JOIN public.es_events li ON li.seq = l.listing
  -- The detail taken out of its event once (OFFSET 0 keeps the planner from copying the expression
  -- into each of the hash's many references, each of which would decompress the event again).
  LEFT JOIN LATERAL (SELECT x.data->'detail' AS detail, x.recorded_at FROM public.es_events x WHERE x.seq = l.detail OFFSET 0) de ON true
  LEFT JOIN LATERAL (SELECT CASE WHEN x.type = 'LinkParsed' THEN x.data ELSE x.data->'parsed' END AS p FROM public.es_events x WHERE x.seq = l.parsed) pa ON true
  LEFT JOIN public.es_events ta ON ta.seq = l.tags
  LEFT JOIN public.es_events fa ON fa.seq = l.family
RETURNING id, mirror_hash, detail IS NOT NULL AND detail_hash IS NULL AS detail_unhashed
)
-- The rows whose hashes PostgreSQL could not write.
SELECT id::text AS id FROM written WHERE mirror_hash IS NULL OR detail_unhashed`;

/** Link events of a version other than their type's current one, up to the position. */
const OLDER_SQL = `
SELECT 1 FROM public.es_events
 WHERE stream_id LIKE 'link-%' AND (tx_id < $1 OR (tx_id = $1 AND seq <= $2)) AND (type, version) NOT IN (${CURRENT})
 LIMIT 1`;

/** The link events of the range's streams up to the position (the range as in FOLD_SQL). */
const COUNT_SQL = `SELECT count(*) AS n FROM public.es_events
 WHERE stream_id LIKE 'link-%' AND stream_id > $3 AND ($4::text IS NULL OR stream_id <= $4) AND (tx_id < $1 OR (tx_id = $1 AND seq <= $2))`;

/**
 * The range's last stream: the `rangeStreams`-th link stream after `after`, in stream_id order (the
 * order of es_events' index on it, which each range's reads follow); none when fewer are left, and
 * the range then takes every link stream after `after`, those es_streams may not list included.
 */
const BOUND_SQL = `SELECT stream_id FROM public.es_streams WHERE stream_id LIKE 'link-%' AND stream_id > $1 ORDER BY stream_id OFFSET $2 LIMIT 1`;

/** Streams per range: a few seconds of the fold at most, so a range holds the log's readers back no longer. */
const RANGE_STREAMS = 2000;

async function accepts(db: ProjectionDb, upTo: LogPosition): Promise<boolean> {
  return (await db.query(OLDER_SQL, [upTo.commit.toString(), upTo.prepare.toString()])).rows.length === 0;
}

async function foldRange(db: ProjectionDb, upTo: LogPosition, after: string | null, streams: number): Promise<{ last: string | null; events: number }> {
  const at = [upTo.commit.toString(), upTo.prepare.toString()];
  // '' sorts before every stream id.
  const from = after ?? '';
  const bound = await db.query<{ stream_id: string }>(BOUND_SQL, [from, streams - 1]);
  const last = bound.rows[0]?.stream_id ?? null;
  const odd = await db.query<{ id: string }>(FOLD_SQL, [...at, LINK_TYPES, from, last]);
  // The few values PostgreSQL writes otherwise than JavaScript: hashed here.
  const values = odd.rows.length
    ? await db.query<{ id: string; mirror: LinkMirrorData | null; detail: unknown }>(
        `SELECT o.id::text AS id, CASE WHEN o.mirror_hash IS NULL THEN m.data END AS mirror, CASE WHEN o.detail_hash IS NULL THEN o.detail END AS detail
           FROM origin_goods o
           LEFT JOIN LATERAL (SELECT x.data FROM public.es_events x
                               WHERE o.mirror_hash IS NULL AND x.stream_id = 'link-' || o.id AND x.type = 'LinkMirrored' AND x.revision <= o.revision
                               ORDER BY x.revision DESC LIMIT 1) m ON true
          WHERE o.id = ANY($1::bigint[])`,
        [odd.rows.map((r) => r.id)],
      )
    : { rows: [] };
  for (const r of values.rows) {
    await db.query(`UPDATE origin_goods SET mirror_hash = coalesce($2, mirror_hash), detail_hash = coalesce($3, detail_hash) WHERE id = $1`, [
      r.id,
      r.mirror ? linkMirrorHash(r.mirror) : null,
      r.detail !== null && r.detail !== undefined ? contentHash(r.detail) : null,
    ]);
  }
  const n = await db.query<{ n: string }>(COUNT_SQL, [...at, from, last]);
  return { last, events: Number(n.rows[0]!.n) };
}

export const linkFold: SqlFold = { streamPrefixes: ['link-'], rangeStreams: RANGE_STREAMS, accepts, foldRange };
