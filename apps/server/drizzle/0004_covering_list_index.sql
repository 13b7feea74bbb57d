DROP INDEX "run_variants_order_idx";--> statement-breakpoint
-- Covering list index (written by hand: drizzle-kit cannot express INCLUDE). Variant list
-- pages, filters and capped counts read it with index-only scans.
CREATE INDEX "run_variants_list_idx" ON "run_variants" USING btree ("run_id","rank","score" DESC NULLS LAST,"id") INCLUDE ("af","consequence","acmg_class","zygosity","clinvar_significance","gene");
