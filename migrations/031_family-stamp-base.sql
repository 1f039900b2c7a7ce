-- Up Migration
-- A family's stamp vouches for all of its aggregates (migration 029). The catalog projection updates
-- only a family's good count and representative when a batch changed nothing but its goods; it may
-- then carry the stamp forward only if the rest of the aggregates were proven before that partial
-- update. `base` is the part of the stamp the goods do not enter: the rules' version, every aggregate
-- but the good count and representative, and every input but the goods. A goods-only update checks
-- it (a change of goods cannot move it); a family whose base does not hold is recomputed whole.
-- Stamps written before this column (null) hold no base: those families are recomputed whole once.
ALTER TABLE family_stamps ADD COLUMN base text;

-- Down Migration
ALTER TABLE family_stamps DROP COLUMN base;
