-- CreateTable
CREATE TABLE "FeedbackStatCell" (
    "projectId" UUID NOT NULL,
    "feedbackType" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "level" INTEGER NOT NULL,
    "start" TIMESTAMPTZ(3) NOT NULL,
    "rows" BIGINT NOT NULL,
    "partial" BIGINT NOT NULL DEFAULT 0,
    "numbers" BIGINT NOT NULL DEFAULT 0,
    "sum" DECIMAL NOT NULL DEFAULT 0,
    "lo" DOUBLE PRECISION,
    "hi" DOUBLE PRECISION,
    "histogram" INTEGER[],
    "trues" BIGINT NOT NULL DEFAULT 0,
    "falses" BIGINT NOT NULL DEFAULT 0,
    "categories" JSONB,
    "overflow" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "FeedbackStatCell_pkey" PRIMARY KEY ("projectId","feedbackType","path","level","start")
);

-- CreateTable
CREATE TABLE "FeedbackStatPending" (
    "id" BIGSERIAL NOT NULL,
    "projectId" UUID NOT NULL,
    "rows" JSONB NOT NULL,
    "sign" INTEGER NOT NULL,

    CONSTRAINT "FeedbackStatPending_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "FeedbackStatPending_projectId_id_idx" ON "FeedbackStatPending"("projectId", "id");

-- AddForeignKey
ALTER TABLE "FeedbackStatCell" ADD CONSTRAINT "FeedbackStatCell_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Below: what keeps "FeedbackStatCell" in step with "Feedback" (docs/feedback.md, "Stats from
-- cells"). Statement triggers compute the shares of cells of the rows a statement wrote or removed
-- and note them in "FeedbackStatPending", whoever writes (any route, a queue's submission, psql).
-- They are added to the cells ("folded") by one transaction at a time per project: at commit, a
-- writer folds its project's notes if no other transaction is folding them (it never waits: 20
-- annotators waiting on each other's hot cells doubled a submission's time); a stats request folds
-- what is left before it reads (waiting for a fold under way), so it reads every committed row.
-- feedback_stats_rebuild() computes every cell again from the rows: this migration's backfill, and
-- bench:stats' way of building them.

-- What a trigger hands on of each row.
CREATE TYPE "FeedbackStatRow" AS ("projectId" UUID, "feedbackType" TEXT, "payload" JSONB, "createdAt" TIMESTAMPTZ(3));

-- A number's bin in a log histogram of relative width 1 %: bin i > 0 holds (g^(i-40001), g^(i-40000)]
-- with g = 1.01/0.99, negative numbers mirror it, 0 is its own. Bins sort as their numbers do.
-- lib/feedback/stats-histogram.ts maps a bin back to 0.99 g^(i-40000): within 1 % of its numbers.
CREATE FUNCTION feedback_stat_bin(v DOUBLE PRECISION) RETURNS INTEGER LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN v = 0 THEN 0 ELSE sign(v)::integer * (40000 + ceil(ln(abs(v)) / ln(1.01::float8 / 0.99))::integer) END
$$;

-- Two histograms (ARRAY[bins, counts], bins ascending) added, b's counts times `sign`; bins left
-- with no count are dropped, and an empty result is NULL.
CREATE FUNCTION feedback_stat_histogram_add(a INTEGER[], b INTEGER[], sign INTEGER) RETURNS INTEGER[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN (
  SELECT CASE WHEN count(*) > 0 THEN ARRAY[array_agg(bin ORDER BY bin), array_agg(n ORDER BY bin)] END
  FROM (
    SELECT bin, sum(n)::integer AS n FROM (
      SELECT a[1][k] AS bin, a[2][k] AS n FROM generate_subscripts(a, 2) k
      UNION ALL
      SELECT b[1][k], sign * b[2][k] FROM generate_subscripts(b, 2) k
    ) both_ GROUP BY bin HAVING sum(n) <> 0
  ) added
  );
END
$$;

-- Two category counts ({category: rows}) added, b's times `sign`; categories left with none are
-- dropped, and an empty result is NULL.
CREATE FUNCTION feedback_stat_categories_add(a JSONB, b JSONB, sign INTEGER) RETURNS JSONB LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN (
  SELECT jsonb_object_agg(category, n) FROM (
    SELECT category, sum(n) AS n FROM (
      SELECT key AS category, value::bigint AS n FROM jsonb_each_text(coalesce(a, '{}'))
      UNION ALL
      SELECT key, sign * value::bigint FROM jsonb_each_text(coalesce(b, '{}'))
    ) both_ GROUP BY category HAVING sum(n) <> 0
  ) added
  );
END
$$;

-- The values a metric can name in each of a list of payloads (i: its 1-based place in the list):
-- numbers, booleans and strings through objects (not arrays) under keys of A-Za-z0-9, '_' and
-- spaces, at most 16 deep and 512 characters of path, ranked by path. Only the first 32 of a payload
-- are aggregated; a row with more counts as partial. One walk for the whole list: a function call
-- per row costs more than the walk.
CREATE FUNCTION feedback_stat_leaves(payloads JSONB[]) RETURNS TABLE (i BIGINT, path TEXT, value JSONB, rank BIGINT) LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH RECURSIVE walk(i, path, value, depth) AS (
    SELECT p.i, e.key, e.value, 1
    FROM unnest(payloads) WITH ORDINALITY AS p(payload, i)
    CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(p.payload) = 'object' THEN p.payload ELSE '{}' END) e
    WHERE e.key ~ '^[A-Za-z0-9_ ]+$'
    UNION ALL
    SELECT w.i, w.path || '.' || e.key, e.value, w.depth + 1
    FROM walk w CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(w.value) = 'object' THEN w.value ELSE '{}' END) e
    WHERE w.depth < 16 AND e.key ~ '^[A-Za-z0-9_ ]+$'
  )
  SELECT walk.i, walk.path, walk.value, row_number() OVER (PARTITION BY walk.i ORDER BY walk.path COLLATE "C")
  FROM walk WHERE jsonb_typeof(walk.value) IN ('number', 'boolean', 'string') AND length(walk.path) <= 512;
END
$$;

-- Each row's share of its cells: per UTC 15 minutes and hour, of all feedback types ('') and of
-- its own; the row itself (path '': rows, and `partial` for a payload with more than 32 values)
-- and each of its first 32 values (numbers: count, exact sum, extremes, histogram; booleans: trues
-- and falses; strings up to 128 characters: counts per category — a longer one, or a cell's 129th
-- category, makes the cell's categories `overflow`, and the cell answers no categorical metric).
CREATE FUNCTION feedback_stat_deltas(changed "FeedbackStatRow"[]) RETURNS SETOF "FeedbackStatCell" LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  WITH r AS (SELECT u.*, u.ordinality AS i FROM unnest(changed) WITH ORDINALITY u),
  leaves AS (SELECT * FROM feedback_stat_leaves(ARRAY(SELECT u.payload FROM unnest(changed) WITH ORDINALITY u ORDER BY u.ordinality))),
  counted AS (SELECT i, count(*) AS n FROM leaves GROUP BY i),
  entries AS (
    SELECT r."projectId", r."feedbackType", r."createdAt", '' AS path, (coalesce(c.n, 0) > 32)::integer AS partial, NULL::jsonb AS value
    FROM r LEFT JOIN counted c USING (i)
    UNION ALL
    SELECT r."projectId", r."feedbackType", r."createdAt", l.path, 0, l.value FROM leaves l JOIN r USING (i) WHERE l.rank <= 32
  ),
  spread AS (
    SELECT e."projectId", t.type AS "feedbackType", e.path, lv.level, date_bin(make_interval(secs => lv.level), e."createdAt", timestamptz '1970-01-01 00:00:00+00') AS start,
      e.partial, e.value, jsonb_typeof(e.value) AS kind
    FROM entries e CROSS JOIN (VALUES (900), (3600)) lv(level) CROSS JOIN LATERAL (SELECT '' UNION SELECT e."feedbackType") t(type)
  ),
  cells AS (
    SELECT "projectId", "feedbackType", path, level, start, count(*) AS rows, sum(partial) AS partial,
      count(*) FILTER (WHERE kind = 'number') AS numbers, coalesce(sum(value::numeric) FILTER (WHERE kind = 'number'), 0) AS sum,
      min((value #>> '{}')::float8) FILTER (WHERE kind = 'number') AS lo, max((value #>> '{}')::float8) FILTER (WHERE kind = 'number') AS hi,
      count(*) FILTER (WHERE value = 'true') AS trues, count(*) FILTER (WHERE value = 'false') AS falses,
      coalesce(bool_or(kind = 'string' AND length(value #>> '{}') > 128), false) AS long_string
    FROM spread GROUP BY 1, 2, 3, 4, 5
  ),
  bins AS (
    SELECT "projectId", "feedbackType", path, level, start, ARRAY[array_agg(bin ORDER BY bin), array_agg(n ORDER BY bin)] AS histogram
    FROM (SELECT "projectId", "feedbackType", path, level, start, feedback_stat_bin((value #>> '{}')::float8) AS bin, count(*)::integer AS n
          FROM spread WHERE kind = 'number' GROUP BY 1, 2, 3, 4, 5, 6) b
    GROUP BY 1, 2, 3, 4, 5
  ),
  categories AS (
    SELECT "projectId", "feedbackType", path, level, start, jsonb_object_agg(category, n) AS categories, count(*) > 128 AS many
    FROM (SELECT "projectId", "feedbackType", path, level, start, value #>> '{}' AS category, count(*) AS n
          FROM spread WHERE kind = 'string' AND length(value #>> '{}') <= 128 GROUP BY 1, 2, 3, 4, 5, 6) s
    GROUP BY 1, 2, 3, 4, 5
  )
  SELECT c."projectId", c."feedbackType", c.path, c.level, c.start::timestamptz(3), c.rows, c.partial, c.numbers, c.sum, c.lo, c.hi, b.histogram, c.trues, c.falses,
    CASE WHEN NOT (c.long_string OR coalesce(s.many, false)) THEN s.categories END, c.long_string OR coalesce(s.many, false)
  FROM cells c
  LEFT JOIN bins b USING ("projectId", "feedbackType", path, level, start)
  LEFT JOIN categories s USING ("projectId", "feedbackType", path, level, start)
  ORDER BY 1, 2, 3, 4, 5;
END
$$;

-- Adds (sign 1) or removes (sign -1) shares of cells (feedback_stat_deltas'), in key order, under
-- the lock of their projects (held to the end of the transaction): the only way cells change.
CREATE FUNCTION feedback_stats_apply_deltas(deltas "FeedbackStatCell"[], sign INTEGER) RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(deltas), 0) = 0 THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(1718, hashtext(p::text)) FROM (SELECT DISTINCT d."projectId" AS p FROM unnest(deltas) d ORDER BY 1) locks;

  IF sign > 0 THEN
    INSERT INTO "FeedbackStatCell" AS c SELECT * FROM unnest(deltas)
    ON CONFLICT ("projectId", "feedbackType", path, level, start) DO UPDATE SET
      rows = c.rows + EXCLUDED.rows, partial = c.partial + EXCLUDED.partial, numbers = c.numbers + EXCLUDED.numbers, sum = c.sum + EXCLUDED.sum,
      lo = least(c.lo, EXCLUDED.lo), hi = greatest(c.hi, EXCLUDED.hi),
      histogram = feedback_stat_histogram_add(c.histogram, EXCLUDED.histogram, 1),
      trues = c.trues + EXCLUDED.trues, falses = c.falses + EXCLUDED.falses,
      categories = CASE WHEN NOT (c.overflow OR EXCLUDED.overflow) THEN feedback_stat_categories_add(c.categories, EXCLUDED.categories, 1) END,
      overflow = c.overflow OR EXCLUDED.overflow OR (SELECT count(*) FROM jsonb_object_keys(feedback_stat_categories_add(c.categories, EXCLUDED.categories, 1))) > 128;
    -- A cell that overflowed in that statement drops its categories.
    UPDATE "FeedbackStatCell" c SET categories = NULL
    FROM unnest(deltas) d
    WHERE (c."projectId", c."feedbackType", c.path, c.level, c.start) = (d."projectId", d."feedbackType", d.path, d.level, d.start)
      AND c.overflow AND c.categories IS NOT NULL;
    RETURN;
  END IF;

  -- Overflowed categories stay overflowed (what was not kept is not known): rebuild clears them.
  UPDATE "FeedbackStatCell" c SET
    rows = c.rows - d.rows, partial = c.partial - d.partial, numbers = c.numbers - d.numbers, sum = c.sum - d.sum,
    histogram = feedback_stat_histogram_add(c.histogram, d.histogram, -1),
    trues = c.trues - d.trues, falses = c.falses - d.falses,
    categories = CASE WHEN NOT c.overflow THEN feedback_stat_categories_add(c.categories, d.categories, -1) END
  FROM unnest(deltas) d
  WHERE (c."projectId", c."feedbackType", c.path, c.level, c.start) = (d."projectId", d."feedbackType", d.path, d.level, d.start);
  DELETE FROM "FeedbackStatCell" c USING unnest(deltas) d
  WHERE (c."projectId", c."feedbackType", c.path, c.level, c.start) = (d."projectId", d."feedbackType", d.path, d.level, d.start)
    AND c.rows <= 0;
  -- A removed number at a cell's least or greatest: the cell takes its extremes again from the rows
  -- (at commit, so from every row the transaction leaves).
  UPDATE "FeedbackStatCell" c SET (lo, hi) = (
    SELECT min((l.value #>> '{}')::float8), max((l.value #>> '{}')::float8)
    FROM feedback_stat_leaves(ARRAY(
      SELECT f.payload FROM "Feedback" f
      WHERE f."projectId" = c."projectId" AND (c."feedbackType" = '' OR f."feedbackType" = c."feedbackType")
        AND f."createdAt" >= c.start AND f."createdAt" < c.start + make_interval(secs => c.level))) l
    WHERE l.path = c.path AND l.rank <= 32 AND jsonb_typeof(l.value) = 'number')
  FROM unnest(deltas) d
  WHERE (c."projectId", c."feedbackType", c.path, c.level, c.start) = (d."projectId", d."feedbackType", d.path, d.level, d.start)
    AND d.numbers > 0 AND (d.lo <= c.lo OR d.hi >= c.hi);
END
$$;

-- Adds (sign 1) or removes (sign -1) rows' shares of their cells.
CREATE FUNCTION feedback_stats_apply(changed "FeedbackStatRow"[], sign INTEGER) RETURNS VOID LANGUAGE sql AS $$
  SELECT feedback_stats_apply_deltas(ARRAY(SELECT d FROM feedback_stat_deltas(changed) d), sign)
$$;

-- A statement's rows' shares of their cells, computed as it writes them and noted per project;
-- rows of a project being deleted are not (its cells go with it).
CREATE FUNCTION feedback_stats_note() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  -- A statement trigger runs for statements that touch no row too (a queue's submission deletes
  -- the annotator's earlier rows, most often none): those note nothing, cheaply.
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    IF EXISTS (SELECT 1 FROM old_rows) THEN
      INSERT INTO "FeedbackStatPending" ("projectId", rows, sign)
      SELECT d."projectId", jsonb_agg(to_jsonb(d)), -1
      FROM feedback_stat_deltas(ARRAY(
        SELECT ROW(o."projectId", o."feedbackType", o.payload, o."createdAt")::"FeedbackStatRow" FROM old_rows o
        WHERE EXISTS (SELECT 1 FROM "Project" p WHERE p.id = o."projectId"))) d
      GROUP BY d."projectId";
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF EXISTS (SELECT 1 FROM new_rows) THEN
      INSERT INTO "FeedbackStatPending" ("projectId", rows, sign)
      SELECT d."projectId", jsonb_agg(to_jsonb(d)), 1
      FROM feedback_stat_deltas(ARRAY(SELECT ROW(n."projectId", n."feedbackType", n.payload, n."createdAt")::"FeedbackStatRow" FROM new_rows n)) d
      GROUP BY d."projectId";
    END IF;
  END IF;
  RETURN NULL;
END
$$;

-- Adds a project's notes to its cells, in the order written (a row's removal after its insert),
-- and deletes them. `wait`: for a fold under way in another transaction (a stats request, which
-- must see every committed row), else it folds nothing when another transaction holds the
-- project's lock (a writer at commit, whose notes the next fold takes). Notes of transactions not
-- yet committed are not seen, and stay for the next fold.
CREATE FUNCTION feedback_stats_fold(project UUID, wait BOOLEAN) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
  note RECORD;
  folded BIGINT[] := '{}';
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "FeedbackStatPending" WHERE "projectId" = project) THEN RETURN; END IF;
  IF wait THEN PERFORM pg_advisory_xact_lock(1718, hashtext(project::text));
  ELSIF NOT pg_try_advisory_xact_lock(1718, hashtext(project::text)) THEN RETURN;
  END IF;
  FOR note IN SELECT id, rows, sign FROM "FeedbackStatPending" WHERE "projectId" = project ORDER BY id LOOP
    PERFORM feedback_stats_apply_deltas(ARRAY(SELECT d FROM jsonb_populate_recordset(NULL::"FeedbackStatCell", note.rows) d), note.sign);
    folded := folded || note.id;
  END LOOP;
  DELETE FROM "FeedbackStatPending" WHERE id = ANY(folded);
END
$$;

-- At commit, the writer's project's notes, unless another transaction is folding them.
CREATE FUNCTION feedback_stats_flush() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  PERFORM feedback_stats_fold(NEW."projectId", false);
  RETURN NULL;
END
$$;

CREATE TRIGGER feedback_stats_insert AFTER INSERT ON "Feedback" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION feedback_stats_note();
CREATE TRIGGER feedback_stats_delete AFTER DELETE ON "Feedback" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION feedback_stats_note();
CREATE TRIGGER feedback_stats_update AFTER UPDATE ON "Feedback" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION feedback_stats_note();
CREATE CONSTRAINT TRIGGER feedback_stats_flush AFTER INSERT ON "FeedbackStatPending" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION feedback_stats_flush();

-- Every cell (of one project, or of all) again from the rows, a project's day at a time. The notes
-- not yet folded are dropped and the rows read in one statement, one snapshot: each committed row
-- counts once, and a transaction not yet committed adds its rows by its notes, later. One project's
-- rebuild holds its lock (a migration's, of all, runs before any request).
CREATE FUNCTION feedback_stats_rebuild(project UUID DEFAULT NULL) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
  days BIGINT;
BEGIN
  IF project IS NOT NULL THEN PERFORM pg_advisory_xact_lock(1718, hashtext(project::text)); END IF;
  DELETE FROM "FeedbackStatCell" WHERE project IS NULL OR "projectId" = project;
  WITH dropped AS (DELETE FROM "FeedbackStatPending" WHERE project IS NULL OR "projectId" = project RETURNING id)
  SELECT count(*) INTO days FROM (
    SELECT feedback_stats_apply(array_agg(ROW(f."projectId", f."feedbackType", f.payload, f."createdAt")::"FeedbackStatRow"), 1)
    FROM "Feedback" f WHERE project IS NULL OR f."projectId" = project
    GROUP BY f."projectId", date_bin(interval '1 day', f."createdAt", timestamptz '1970-01-01 00:00:00+00')
  ) applied, (SELECT count(*) FROM dropped) notes;
END
$$;

SELECT feedback_stats_rebuild();
