-- The ranking of a run's candidates out of the wide run_variants row (issue 14, re-rank write
-- and list): run_variant_ranks holds one narrow row per candidate (its rank and a copy of its
-- filter columns, db/schema/products.ts runVariantRanks). A re-rank rewrote the rank of 13,018
-- wide rows of a genome, each a new row version entering every index of run_variants (~9 WAL
-- records a row; 1.0-1.5 s in psql); it now deletes and COPYs the run's narrow rows (0.17-0.24 s
-- in psql). Lists read the candidates from here in rank order and the other variants from
-- run_variants' indexes, which hold the non-candidates only.
CREATE TABLE "run_variant_ranks" (
	"run_id" uuid NOT NULL,
	"rank" integer NOT NULL,
	"id" integer NOT NULL,
	"gene" text,
	"consequence" text,
	"af" real,
	"clinvar_significance" text,
	"acmg_class" text NOT NULL,
	"zygosity" text NOT NULL,
	"inheritance" text[] DEFAULT '{}'::text[] NOT NULL,
	CONSTRAINT "run_variant_ranks_run_id_rank_pk" PRIMARY KEY("run_id","rank")
);
--> statement-breakpoint
-- Existing runs keep their rankings: every candidate's stored rank, in rank order. A candidate
-- without a rank (none is written so; kept here so that no variant drops out of the lists)
-- follows the ranked ones by (score desc, id), its order among the unranked rows before.
INSERT INTO "run_variant_ranks" ("run_id", "rank", "id", "gene", "consequence", "af", "clinvar_significance", "acmg_class", "zygosity", "inheritance")
SELECT v."run_id",
       row_number() OVER (PARTITION BY v."run_id" ORDER BY v."rank" ASC NULLS LAST, v."score" DESC, v."id")::int,
       v."id", v."gene", v."consequence", v."af", v."clinvar_significance", v."acmg_class", v."zygosity", v."inheritance"
FROM "run_variants" v
WHERE v."is_candidate"
ORDER BY v."run_id", v."rank" ASC NULLS LAST, v."score" DESC, v."id";
--> statement-breakpoint
CREATE UNIQUE INDEX "run_variant_ranks_variant_uq" ON "run_variant_ranks" USING btree ("run_id","id");--> statement-breakpoint
CREATE INDEX "run_variant_ranks_gene_idx" ON "run_variant_ranks" USING btree ("run_id","gene","rank") WHERE gene is not null;--> statement-breakpoint
-- The rules of run_variants' run (migration 0025), once per statement: an insert naming a
-- missing run fails (the runs locked FOR KEY SHARE as a foreign key does); deleting runs deletes
-- their ranks with their variants.
CREATE FUNCTION "run_variant_ranks_check_runs"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missing uuid;
BEGIN
  SELECT n.run_id INTO missing
  FROM (SELECT DISTINCT run_id FROM new_rows) AS n
  WHERE NOT EXISTS (SELECT 1 FROM analysis_runs AS r WHERE r.id = n.run_id FOR KEY SHARE OF r)
  LIMIT 1;
  IF FOUND THEN
    RAISE foreign_key_violation USING MESSAGE = format('insert into run_variant_ranks: run %s is not present in table analysis_runs', missing);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "run_variant_ranks_check_runs" AFTER INSERT ON "run_variant_ranks" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "run_variant_ranks_check_runs"();--> statement-breakpoint
CREATE OR REPLACE FUNCTION "analysis_runs_delete_variants"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM run_variant_ranks WHERE run_id IN (SELECT id FROM old_rows);
  DELETE FROM run_variants WHERE run_id IN (SELECT id FROM old_rows);
  RETURN NULL;
END
$$;--> statement-breakpoint
-- The list-order indexes of run_variants without the rank, over the non-candidates only.
DROP INDEX IF EXISTS "run_variants_list_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "run_variants_inheritance_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "run_variants_gene_order_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "run_variants_consequence_order_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "run_variants_acmg_order_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "run_variants_clinvar_order_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "run_variants_zygosity_order_idx";--> statement-breakpoint
ALTER TABLE "run_variants" DROP COLUMN "rank";--> statement-breakpoint
CREATE INDEX "run_variants_list_idx" ON "run_variants" USING btree ("run_id","score" DESC NULLS LAST,"id") INCLUDE ("af","consequence","acmg_class","zygosity","clinvar_significance","gene") WHERE NOT is_candidate;--> statement-breakpoint
CREATE INDEX "run_variants_gene_order_idx" ON "run_variants" USING btree ("run_id","gene","score" DESC NULLS LAST,"id") WHERE gene is not null and not is_candidate;--> statement-breakpoint
CREATE INDEX "run_variants_consequence_order_idx" ON "run_variants" USING btree ("run_id","consequence","score" DESC NULLS LAST,"id") WHERE consequence <> 'intergenic_variant' and consequence <> 'intron_variant' and consequence <> 'upstream_gene_variant' and consequence <> 'downstream_gene_variant' and not is_candidate;--> statement-breakpoint
CREATE INDEX "run_variants_acmg_order_idx" ON "run_variants" USING btree ("run_id","acmg_class","score" DESC NULLS LAST,"id") WHERE acmg_class <> 'Uncertain significance' and not is_candidate;--> statement-breakpoint
CREATE INDEX "run_variants_clinvar_order_idx" ON "run_variants" USING btree ("run_id","clinvar_significance","score" DESC NULLS LAST,"id") WHERE clinvar_significance is not null and not is_candidate;--> statement-breakpoint
CREATE INDEX "run_variants_zygosity_order_idx" ON "run_variants" USING btree ("run_id","zygosity","score" DESC NULLS LAST,"id") WHERE zygosity <> 'heterozygous' and zygosity <> 'homozygous' and not is_candidate;
