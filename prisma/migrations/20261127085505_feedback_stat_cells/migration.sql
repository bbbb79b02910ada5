-- CreateTable
CREATE TABLE "FeedbackStatCell" (
    "projectId" UUID NOT NULL,
    "detail" BOOLEAN NOT NULL,
    "level" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "start" TIMESTAMPTZ(3) NOT NULL,
    "feedbackType" TEXT NOT NULL,
    "triggerRef" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "bin" INTEGER NOT NULL,
    "n" BIGINT NOT NULL,
    "sum" numeric,
    "lo" DOUBLE PRECISION,
    "hi" DOUBLE PRECISION,
    "t" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "FeedbackStatCell_pkey" PRIMARY KEY ("projectId","detail","level","path","start","feedbackType","triggerRef","kind","category","bin")
);

-- AddForeignKey
ALTER TABLE "FeedbackStatCell" ADD CONSTRAINT "FeedbackStatCell_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "FeedbackStatPending" (
    "id" BIGSERIAL NOT NULL,
    "rows" JSONB NOT NULL,
    "sign" INTEGER NOT NULL,

    CONSTRAINT "FeedbackStatPending_pkey" PRIMARY KEY ("id")
);

-- Below: what keeps "FeedbackStatCell" in step with "Feedback" (docs/feedback.md, "Stats from
-- aggregates"). Statement triggers note the rows a statement wrote or removed in
-- "FeedbackStatPending"; a deferred trigger hands them to feedback_stats_apply at commit, inside
-- the writing transaction, so a cell counts exactly the committed rows whoever writes them (any
-- route, a queue's submission, a cascade, psql), and a project's cells are locked only while its
-- writers commit.
-- feedback_stats_rebuild() recomputes every cell from the rows: this migration's backfill, and
-- bench:stats' way of building them.

-- What a trigger hands on of each row.
CREATE TYPE "FeedbackStatRow" AS ("projectId" UUID, "feedbackType" TEXT, "triggerRef" TEXT, "payload" JSONB, "createdAt" TIMESTAMPTZ(3));

-- A number's bin in a log histogram of relative width 1 %: bin i > 0 holds (g^(i-40001), g^(i-40000)]
-- with g = 1.01/0.99, negative numbers mirror it, 0 is its own. Bins sort as their numbers do.
CREATE FUNCTION feedback_stat_bin(v DOUBLE PRECISION) RETURNS INTEGER LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN v = 0 THEN 0 ELSE sign(v)::integer * (40000 + ceil(ln(abs(v)) / ln(1.01::float8 / 0.99))::integer) END
$$;

-- The number a bin stands for: within 1 % of every number in it (0.99 g^i against (g^(i-1), g^i]).
CREATE FUNCTION feedback_stat_bin_value(bin INTEGER) RETURNS DOUBLE PRECISION LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN bin = 0 THEN 0 ELSE sign(bin) * exp(least(709, (abs(bin) - 40000) * ln(1.01::float8 / 0.99) + ln(0.99::float8))) END
$$;

-- The values a metric can name in each of a list of payloads (i: its 1-based place in the list):
-- numbers, booleans and strings through objects (not arrays) under keys of A-Za-z0-9, '_' and
-- spaces, at most 16 deep and 512 characters of path, ranked by path. Only the first 32 of a payload
-- are aggregated; a row with more counts as partial. One walk for the whole list: a function call
-- per row costs more than the walk.
CREATE FUNCTION feedback_stat_leaves(payloads JSONB[]) RETURNS TABLE (i BIGINT, path TEXT, value JSONB, rank BIGINT) LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
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
  FROM walk WHERE jsonb_typeof(walk.value) IN ('number', 'boolean', 'string') AND length(walk.path) <= 512
$$;

-- Adds (sign 1) or removes (sign -1) rows' shares of their cells: per UTC span of 15 min, 1 h and
-- 1 day, of the whole project and of the row's type and trigger_ref (without histograms).
CREATE FUNCTION feedback_stats_apply(rows "FeedbackStatRow"[], sign INTEGER) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
  deltas "FeedbackStatCell"[];
BEGIN
  -- A removal by a cascade from a deleted project: its cells go with it.
  IF sign < 0 THEN
    rows := ARRAY(SELECT r FROM unnest(rows) r WHERE EXISTS (SELECT 1 FROM "Project" p WHERE p.id = r."projectId"));
  END IF;
  IF cardinality(rows) IS NULL OR cardinality(rows) = 0 THEN RETURN; END IF;
  -- One lock per project, in id order, before any cell: a transaction that writes twice (a replace
  -- deletes, then inserts) takes cells in two statements, and two such transactions would otherwise
  -- deadlock on each other's cells. Every write of a project already queues on its current cells.
  PERFORM pg_advisory_xact_lock(1718, hashtext(p::text)) FROM (SELECT DISTINCT r."projectId" AS p FROM unnest(rows) r ORDER BY 1) locks;

  WITH r AS (SELECT u.*, u.ordinality AS i FROM unnest(rows) WITH ORDINALITY u),
  leaves AS (SELECT * FROM feedback_stat_leaves(ARRAY(SELECT u.payload FROM unnest(rows) WITH ORDINALITY u ORDER BY u.ordinality))),
  partial AS (SELECT i FROM leaves WHERE rank = 33),
  kept AS (
    SELECT r."projectId", r."feedbackType", r."triggerRef", r."createdAt", l.path, l.value,
      CASE jsonb_typeof(l.value) WHEN 'number' THEN 'x' WHEN 'boolean' THEN 'b' ELSE CASE WHEN length(l.value #>> '{}') <= 128 THEN 's' ELSE 'l' END END AS kind
    FROM leaves l JOIN r USING (i) WHERE l.rank <= 32
  ),
  entries AS (
    SELECT r."projectId", r."feedbackType", r."triggerRef", r."createdAt", '' AS path, 'r' AS kind, '' AS category, 0 AS bin,
      NULL::numeric AS num, NULL::float8 AS x, (partial.i IS NOT NULL)::integer AS t
    FROM r LEFT JOIN partial USING (i)
    UNION ALL
    SELECT k."projectId", k."feedbackType", k."triggerRef", k."createdAt", k.path, k.kind, CASE k.kind WHEN 's' THEN k.value #>> '{}' ELSE '' END, 0,
      CASE k.kind WHEN 'x' THEN k.value::numeric END, CASE k.kind WHEN 'x' THEN (k.value #>> '{}')::float8 END, (k.value = 'true')::integer
    FROM kept k
    UNION ALL
    SELECT k."projectId", k."feedbackType", k."triggerRef", k."createdAt", k.path, 'h', '', feedback_stat_bin((k.value #>> '{}')::float8), NULL, NULL, 0
    FROM kept k WHERE k.kind = 'x'
  ),
  cells AS (
    SELECT e."projectId", s.detail, lv.level, e.path, date_bin(lv.span, e."createdAt", timestamptz '1970-01-01 00:00:00+00') AS start,
      CASE WHEN s.detail THEN e."feedbackType" ELSE '' END AS "feedbackType", CASE WHEN s.detail THEN coalesce(e."triggerRef", '') ELSE '' END AS "triggerRef",
      e.kind, e.category, e.bin, count(*) AS n, sum(e.num) AS sum, min(e.x) AS lo, max(e.x) AS hi, sum(e.t)::bigint AS t
    FROM entries e CROSS JOIN (VALUES (900, interval '900 s'), (3600, interval '1 hour'), (86400, interval '1 day')) lv(level, span) CROSS JOIN (VALUES (false), (true)) s(detail)
    -- Histograms for the whole project only: per type and trigger they would be most of the cells.
    WHERE NOT (s.detail AND e.kind = 'h')
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
  )
  SELECT array_agg(ROW(c.*)::"FeedbackStatCell" ORDER BY c."projectId", c.detail, c.level, c.path, c.start, c."feedbackType", c."triggerRef", c.kind, c.category, c.bin)
  INTO deltas FROM cells c;

  IF sign > 0 THEN
    INSERT INTO "FeedbackStatCell" AS c SELECT * FROM unnest(deltas)
    ON CONFLICT ("projectId", detail, level, path, start, "feedbackType", "triggerRef", kind, category, bin) DO UPDATE
      SET n = c.n + EXCLUDED.n, sum = c.sum + EXCLUDED.sum, lo = least(c.lo, EXCLUDED.lo), hi = greatest(c.hi, EXCLUDED.hi), t = c.t + EXCLUDED.t;
    RETURN;
  END IF;

  UPDATE "FeedbackStatCell" c SET n = c.n - d.n, sum = c.sum - d.sum, t = c.t - d.t
  FROM unnest(deltas) d
  WHERE (c."projectId", c.detail, c.level, c.path, c.start, c."feedbackType", c."triggerRef", c.kind, c.category, c.bin)
      = (d."projectId", d.detail, d.level, d.path, d.start, d."feedbackType", d."triggerRef", d.kind, d.category, d.bin);
  DELETE FROM "FeedbackStatCell" c USING unnest(deltas) d
  WHERE (c."projectId", c.detail, c.level, c.path, c.start, c."feedbackType", c."triggerRef", c.kind, c.category, c.bin)
      = (d."projectId", d.detail, d.level, d.path, d.start, d."feedbackType", d."triggerRef", d.kind, d.category, d.bin)
    AND c.n <= 0;

  -- A removed number may have been a cell's least or greatest: each touched number cell takes them
  -- again, finest first: a type's 15 minutes from its rows, its hours and days from the spans
  -- below, the project's cells from its types'.
  UPDATE "FeedbackStatCell" c SET (lo, hi) = (
    SELECT min((l.value #>> '{}')::float8), max((l.value #>> '{}')::float8)
    FROM feedback_stat_leaves(ARRAY(
      SELECT f.payload FROM "Feedback" f
      WHERE f."projectId" = c."projectId" AND f."feedbackType" = c."feedbackType" AND coalesce(f."triggerRef", '') = c."triggerRef"
        AND f."createdAt" >= c.start AND f."createdAt" < c.start + interval '900 seconds')) l
    WHERE l.path = c.path AND l.rank <= 32 AND jsonb_typeof(l.value) = 'number')
  FROM unnest(deltas) d
  WHERE d.kind = 'x' AND d.detail AND d.level = 900
    AND (c."projectId", c.detail, c.level, c.path, c.start, c."feedbackType", c."triggerRef", c.kind, c.category, c.bin)
      = (d."projectId", d.detail, d.level, d.path, d.start, d."feedbackType", d."triggerRef", d.kind, d.category, d.bin);
  UPDATE "FeedbackStatCell" c SET (lo, hi) = (
    SELECT min(k.lo), max(k.hi) FROM "FeedbackStatCell" k
    WHERE k."projectId" = c."projectId" AND k.detail AND k.level = CASE c.level WHEN 3600 THEN 900 ELSE 3600 END AND k.path = c.path
      AND k.start >= c.start AND k.start < c.start + make_interval(secs => c.level)
      AND k."feedbackType" = c."feedbackType" AND k."triggerRef" = c."triggerRef" AND k.kind = 'x')
  FROM unnest(deltas) d
  WHERE d.kind = 'x' AND d.detail AND d.level = 3600
    AND (c."projectId", c.detail, c.level, c.path, c.start, c."feedbackType", c."triggerRef", c.kind, c.category, c.bin)
      = (d."projectId", d.detail, d.level, d.path, d.start, d."feedbackType", d."triggerRef", d.kind, d.category, d.bin);
  UPDATE "FeedbackStatCell" c SET (lo, hi) = (
    SELECT min(k.lo), max(k.hi) FROM "FeedbackStatCell" k
    WHERE k."projectId" = c."projectId" AND k.detail AND k.level = 3600 AND k.path = c.path
      AND k.start >= c.start AND k.start < c.start + interval '1 day'
      AND k."feedbackType" = c."feedbackType" AND k."triggerRef" = c."triggerRef" AND k.kind = 'x')
  FROM unnest(deltas) d
  WHERE d.kind = 'x' AND d.detail AND d.level = 86400
    AND (c."projectId", c.detail, c.level, c.path, c.start, c."feedbackType", c."triggerRef", c.kind, c.category, c.bin)
      = (d."projectId", d.detail, d.level, d.path, d.start, d."feedbackType", d."triggerRef", d.kind, d.category, d.bin);
  UPDATE "FeedbackStatCell" c SET (lo, hi) = (
    SELECT min(k.lo), max(k.hi) FROM "FeedbackStatCell" k
    WHERE k."projectId" = c."projectId" AND k.detail AND k.level = c.level AND k.path = c.path AND k.start = c.start AND k.kind = 'x')
  FROM unnest(deltas) d
  WHERE d.kind = 'x' AND NOT d.detail
    AND (c."projectId", c.detail, c.level, c.path, c.start, c."feedbackType", c."triggerRef", c.kind, c.category, c.bin)
      = (d."projectId", d.detail, d.level, d.path, d.start, d."feedbackType", d."triggerRef", d.kind, d.category, d.bin);
END
$$;

-- A statement's rows, noted for the commit.
CREATE FUNCTION feedback_stats_note() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO "FeedbackStatPending" (rows, sign)
    SELECT jsonb_agg(jsonb_build_object('projectId', o."projectId", 'feedbackType', o."feedbackType", 'triggerRef', o."triggerRef", 'payload', o.payload, 'createdAt', o."createdAt")), -1
    FROM old_rows o HAVING count(*) > 0;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "FeedbackStatPending" (rows, sign)
    SELECT jsonb_agg(jsonb_build_object('projectId', n."projectId", 'feedbackType', n."feedbackType", 'triggerRef', n."triggerRef", 'payload', n.payload, 'createdAt', n."createdAt")), 1
    FROM new_rows n HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END
$$;

-- At commit, each noted statement in the order written (a replace's removal before its insert).
CREATE FUNCTION feedback_stats_flush() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  PERFORM feedback_stats_apply(ARRAY(SELECT r FROM jsonb_populate_recordset(NULL::"FeedbackStatRow", NEW.rows) r), NEW.sign);
  DELETE FROM "FeedbackStatPending" WHERE id = NEW.id;
  RETURN NULL;
END
$$;

CREATE TRIGGER feedback_stats_insert AFTER INSERT ON "Feedback" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION feedback_stats_note();
CREATE TRIGGER feedback_stats_delete AFTER DELETE ON "Feedback" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION feedback_stats_note();
CREATE TRIGGER feedback_stats_update AFTER UPDATE ON "Feedback" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION feedback_stats_note();
CREATE CONSTRAINT TRIGGER feedback_stats_flush AFTER INSERT ON "FeedbackStatPending" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION feedback_stats_flush();

-- Every cell (of one project, or of all) again from the rows, a project's day at a time.
CREATE FUNCTION feedback_stats_rebuild(project UUID DEFAULT NULL) RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "FeedbackStatCell" WHERE project IS NULL OR "projectId" = project;
  PERFORM feedback_stats_apply(array_agg(ROW(f."projectId", f."feedbackType", f."triggerRef", f.payload, f."createdAt")::"FeedbackStatRow"), 1)
  FROM "Feedback" f WHERE project IS NULL OR f."projectId" = project
  GROUP BY f."projectId", date_bin(interval '1 day', f."createdAt", timestamptz '1970-01-01 00:00:00+00');
END
$$;

SELECT feedback_stats_rebuild();
