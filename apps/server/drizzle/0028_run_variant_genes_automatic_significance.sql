-- The most pathogenic automatic ACMG class among a gene's stored variants
-- (run_variant_genes.automatic_significance), so a re-ranking reads the run's per-gene figures
-- from this table (a few thousand rows; reviewers' classes added for the genes they touch,
-- db/gene-significance.ts) instead of aggregating every stored variant of the run again
-- (0.7-1.2 s for a 1.1 M-record genome). Existing runs are filled here from their stored variants.
ALTER TABLE "run_variant_genes" ADD COLUMN "automatic_significance" text;
--> statement-breakpoint
UPDATE "run_variant_genes" s SET "automatic_significance" = a."automatic_significance"
FROM (
  SELECT v."run_id", v."gene",
         (ARRAY['Pathogenic', 'Likely pathogenic', 'Uncertain significance', 'Likely benign', 'Benign'])[
           1 + min(CASE v."acmg_class" WHEN 'Pathogenic' THEN 0 WHEN 'Likely pathogenic' THEN 1
                   WHEN 'Uncertain significance' THEN 2 WHEN 'Likely benign' THEN 3 ELSE 4 END)] AS "automatic_significance"
  FROM "run_variants" v
  WHERE v."gene" IS NOT NULL
  GROUP BY v."run_id", v."gene"
) a
WHERE a."run_id" = s."run_id" AND a."gene" = s."gene";
