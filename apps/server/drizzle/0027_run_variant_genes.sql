-- Per gene of a run: its stored variants' count and best score (db/schema/products.ts
-- runVariantGenes), the unfiltered clustered view's gene list, written with the run's ranking.
-- Existing runs are filled here from their stored variants (the aggregate the list ran per request).
CREATE TABLE "run_variant_genes" (
	"run_id" uuid NOT NULL,
	"gene" text NOT NULL,
	"variant_count" integer NOT NULL,
	"max_score" real NOT NULL,
	CONSTRAINT "run_variant_genes_run_id_gene_pk" PRIMARY KEY("run_id","gene")
);
--> statement-breakpoint
ALTER TABLE "run_variant_genes" ADD CONSTRAINT "run_variant_genes_run_id_analysis_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."analysis_runs"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
INSERT INTO "run_variant_genes" ("run_id", "gene", "variant_count", "max_score")
SELECT v."run_id", v."gene", count(*)::int, max(v."score")
FROM "run_variants" v JOIN "analysis_runs" r ON r."id" = v."run_id"
WHERE v."gene" IS NOT NULL
GROUP BY v."run_id", v."gene";
