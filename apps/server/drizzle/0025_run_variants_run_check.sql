-- The run of each stored variant is checked once per statement instead of once per row (issue 14,
-- genome load time). The foreign key run_variants.run_id -> analysis_runs.id ON DELETE CASCADE
-- queued one RI trigger per inserted row, each a lookup and a key-share lock of the same run:
-- COPY of a 1.1 M-record genome (220 statements of 5,000 rows) spent 32.4 s of backend CPU with
-- it and 18.6-20.7 s without (measured in one session, load 14-18). The same rules, written as
-- triggers:
--  * an INSERT into run_variants fails (foreign_key_violation, 23503) unless every run it names
--    exists; the runs are locked FOR KEY SHARE as the foreign key does, so a concurrent delete of
--    the run waits for the load (and a load after the delete fails);
--  * a variant's run_id cannot change, nor can the id of a run that has variants;
--  * deleting runs deletes their variants (also when the delete cascades from the case).
ALTER TABLE "run_variants" DROP CONSTRAINT IF EXISTS "run_variants_run_id_analysis_runs_id_fk";--> statement-breakpoint
CREATE FUNCTION "run_variants_check_runs"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missing uuid;
BEGIN
  SELECT n.run_id INTO missing
  FROM (SELECT DISTINCT run_id FROM new_rows) AS n
  WHERE NOT EXISTS (SELECT 1 FROM analysis_runs AS r WHERE r.id = n.run_id FOR KEY SHARE OF r)
  LIMIT 1;
  IF FOUND THEN
    RAISE foreign_key_violation USING MESSAGE = format('insert into run_variants: run %s is not present in table analysis_runs', missing);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "run_variants_check_runs" AFTER INSERT ON "run_variants" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "run_variants_check_runs"();--> statement-breakpoint
CREATE FUNCTION "run_variants_keep_run"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE foreign_key_violation USING MESSAGE = format('update of run_variants: variant %s cannot move from run %s to run %s', OLD.id, OLD.run_id, NEW.run_id);
END
$$;--> statement-breakpoint
CREATE TRIGGER "run_variants_keep_run" BEFORE UPDATE OF "run_id" ON "run_variants" FOR EACH ROW WHEN (OLD."run_id" IS DISTINCT FROM NEW."run_id") EXECUTE FUNCTION "run_variants_keep_run"();--> statement-breakpoint
CREATE FUNCTION "analysis_runs_keep_id"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM run_variants WHERE run_id = OLD.id) THEN
    RAISE foreign_key_violation USING MESSAGE = format('update of analysis_runs: run %s has stored variants, its id cannot change', OLD.id);
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "analysis_runs_keep_id" BEFORE UPDATE OF "id" ON "analysis_runs" FOR EACH ROW WHEN (OLD."id" IS DISTINCT FROM NEW."id") EXECUTE FUNCTION "analysis_runs_keep_id"();--> statement-breakpoint
CREATE FUNCTION "analysis_runs_delete_variants"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM run_variants WHERE run_id IN (SELECT id FROM old_rows);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "analysis_runs_delete_variants" AFTER DELETE ON "analysis_runs" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "analysis_runs_delete_variants"();--> statement-breakpoint
-- Variants whose run is gone cannot exist under the foreign key; none should be here, and any would now never be deleted.
DELETE FROM "run_variants" AS v WHERE NOT EXISTS (SELECT 1 FROM "analysis_runs" AS r WHERE r.id = v.run_id);
