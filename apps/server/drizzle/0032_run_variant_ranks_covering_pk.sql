-- The rank order of a run's candidates covers the variant id (issue 14, variant list at 50
-- concurrent): a list page at an offset reads the run's (run_id, rank) keys up to the offset in
-- an index-only scan instead of a heap row per skipped key. Without it PostgreSQL planned the
-- deepest offset page (9,990 of 13,018 candidates) as a sequential scan and sort of the run's
-- rank rows: 5.1 ms of execution against 1.2 ms with this key (EXPLAIN ANALYZE, 1.1 M stored
-- variants). The primary key itself carries the id (no second index for the re-rank to write).
ALTER TABLE "run_variant_ranks" DROP CONSTRAINT "run_variant_ranks_run_id_rank_pk";--> statement-breakpoint
ALTER TABLE "run_variant_ranks" ADD CONSTRAINT "run_variant_ranks_run_id_rank_pk" PRIMARY KEY ("run_id","rank") INCLUDE ("id");
