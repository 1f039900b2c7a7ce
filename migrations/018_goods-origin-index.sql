-- Up Migration
-- A link's good is looked up as "the goods of this link, lowest id first". With an index on the link
-- alone the planner may walk the primary key instead and filter every good (seconds per thousand
-- links on a large catalogue); with the id in the index the lookup is one index probe.
CREATE INDEX goods_origin_id ON goods (origin_good_id, id);
DROP INDEX goods_origin;

-- Down Migration
CREATE INDEX goods_origin ON goods (origin_good_id);
DROP INDEX goods_origin_id;
