-- Reviewers' classes set before the significance of a gene and its diseases followed them
-- (8949efe): the variant screens showed the reviewer's class, but run_genes/run_phenotypes kept
-- the automatic one until the class was saved again or the case re-ranked. Here the current run
-- of every case with a reviewer's class is given what db/gene-significance.ts writes since: a
-- gene's significance is the most pathogenic class among its variants, a reviewer's class standing
-- in for the automatic ACMG class of the variant it was set on (no class read as Benign, as there),
-- and a disease's is the most pathogenic of its genes' (none: null). Only the genes with a reviewed
-- variant and the diseases that involve them are rewritten.
CREATE TEMPORARY TABLE "reviewed_gene_significance" AS
WITH reviewed AS (
  SELECT DISTINCT v."run_id", v."gene"
  FROM "variant_classifications" c
  JOIN "products" p ON p."id" = c."product_id"
  JOIN "run_variants" v ON v."run_id" = p."current_run_id"
    AND v."chrom" = c."chrom" AND v."pos" = c."pos" AND v."ref" = c."ref" AND v."alt" = c."alt"
  WHERE v."gene" IS NOT NULL
),
involved AS (
  SELECT "run_id", "gene" FROM reviewed
  UNION
  SELECT d."run_id", g."gene"
  FROM "run_phenotypes" d
  JOIN reviewed r ON r."run_id" = d."run_id" AND d."genes" @> jsonb_build_array(r."gene")
  CROSS JOIN LATERAL jsonb_array_elements_text(d."genes") AS g("gene")
)
SELECT v."run_id", v."gene", (r."gene" IS NOT NULL) AS "reviewed",
       min(CASE coalesce(c."classification", v."acmg_class") WHEN 'Pathogenic' THEN 0 WHEN 'Likely pathogenic' THEN 1
           WHEN 'Uncertain significance' THEN 2 WHEN 'Likely benign' THEN 3 ELSE 4 END) AS "best"
FROM involved i
JOIN "run_variants" v ON v."run_id" = i."run_id" AND v."gene" = i."gene"
JOIN "analysis_runs" ar ON ar."id" = v."run_id"
LEFT JOIN "variant_classifications" c ON c."product_id" = ar."product_id"
  AND c."chrom" = v."chrom" AND c."pos" = v."pos" AND c."ref" = v."ref" AND c."alt" = v."alt"
LEFT JOIN reviewed r ON r."run_id" = v."run_id" AND r."gene" = v."gene"
GROUP BY v."run_id", v."gene", r."gene";
--> statement-breakpoint
UPDATE "run_genes" g
SET "significance" = (ARRAY['Pathogenic', 'Likely pathogenic', 'Uncertain significance', 'Likely benign', 'Benign'])[1 + s."best"]
FROM "reviewed_gene_significance" s
WHERE s."reviewed" AND g."run_id" = s."run_id" AND g."symbol" = s."gene";
--> statement-breakpoint
UPDATE "run_phenotypes" d
SET "significance" = a."significance"
FROM (
  SELECT d2."run_id", d2."disease_id",
         (ARRAY['Pathogenic', 'Likely pathogenic', 'Uncertain significance', 'Likely benign', 'Benign'])[1 + min(s."best")] AS "significance"
  FROM "run_phenotypes" d2
  CROSS JOIN LATERAL jsonb_array_elements_text(d2."genes") AS g("gene")
  LEFT JOIN "reviewed_gene_significance" s ON s."run_id" = d2."run_id" AND s."gene" = g."gene"
  WHERE EXISTS (
    SELECT 1 FROM "reviewed_gene_significance" r
    WHERE r."reviewed" AND r."run_id" = d2."run_id" AND d2."genes" @> jsonb_build_array(r."gene")
  )
  GROUP BY d2."run_id", d2."disease_id"
) a
WHERE d."run_id" = a."run_id" AND d."disease_id" = a."disease_id";
--> statement-breakpoint
DROP TABLE "reviewed_gene_significance";
