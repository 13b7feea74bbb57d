-- Where a ranked gene's phenotype evidence comes from (engine scoreParts.source and the disease it names; issue 15); null for runs ranked before it was stored.
ALTER TABLE "run_genes" ADD COLUMN "phenotype_source" jsonb;
