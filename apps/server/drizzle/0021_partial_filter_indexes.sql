-- Filter indexes of run_variants hold only the rows their filters are selective on (issue 14,
-- genome load time). A genome is ~50 % intergenic and ~42 % intronic variants, almost all of
-- uncertain significance, heterozygous or homozygous, without ClinVar entry and (intergenic)
-- without gene: full per-filter indexes over those rows cost most of a genome's insert time
-- (each row entered 9 btrees), and a list filtered on such a common value is read as fast from
-- the covering list index (run_variants_list_idx, which INCLUDEs every filter column) in list
-- order, skipping the non-matching entries. A filter on a rare value (a ClinVar class, a
-- coding consequence, Likely pathogenic, hemizygous, a gene) implies the partial index's
-- predicate and reads its few rows there.
DROP INDEX IF EXISTS "run_variants_gene_order_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "run_variants_consequence_order_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "run_variants_acmg_order_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "run_variants_clinvar_order_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "run_variants_zygosity_order_idx";--> statement-breakpoint
CREATE INDEX "run_variants_gene_order_idx" ON "run_variants" USING btree ("run_id","gene","rank","score" DESC NULLS LAST,"id") WHERE "gene" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "run_variants_consequence_order_idx" ON "run_variants" USING btree ("run_id","consequence","rank","score" DESC NULLS LAST,"id") WHERE "consequence" <> 'intergenic_variant' AND "consequence" <> 'intron_variant' AND "consequence" <> 'upstream_gene_variant' AND "consequence" <> 'downstream_gene_variant';--> statement-breakpoint
CREATE INDEX "run_variants_acmg_order_idx" ON "run_variants" USING btree ("run_id","acmg_class","rank","score" DESC NULLS LAST,"id") WHERE "acmg_class" <> 'Uncertain significance';--> statement-breakpoint
CREATE INDEX "run_variants_clinvar_order_idx" ON "run_variants" USING btree ("run_id","clinvar_significance","rank","score" DESC NULLS LAST,"id") WHERE "clinvar_significance" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "run_variants_zygosity_order_idx" ON "run_variants" USING btree ("run_id","zygosity","rank","score" DESC NULLS LAST,"id") WHERE "zygosity" <> 'heterozygous' AND "zygosity" <> 'homozygous';
