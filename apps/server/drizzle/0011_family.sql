-- Family analysis (issue 13): the pedigree of the upload, the family and trio QC of a run, and
-- per-variant genotypes of every sequenced member with the inheritance patterns a candidate fits.
ALTER TABLE "products" ADD COLUMN "pedigree" jsonb;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "proband_sample" text;--> statement-breakpoint
ALTER TABLE "analysis_runs" ADD COLUMN "family" jsonb;--> statement-breakpoint
ALTER TABLE "run_variants" ADD COLUMN "genotypes" jsonb;--> statement-breakpoint
ALTER TABLE "run_variants" ADD COLUMN "inheritance" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "run_variants" ADD COLUMN "inheritance_detail" jsonb;--> statement-breakpoint
CREATE INDEX "run_variants_inheritance_idx" ON "run_variants" USING btree ("run_id","rank","score" DESC NULLS LAST,"id") WHERE cardinality(inheritance) > 0;
