DROP INDEX "run_variants_rank_idx";--> statement-breakpoint
DROP INDEX "run_variants_gene_idx";--> statement-breakpoint
DROP INDEX "run_variants_consequence_idx";--> statement-breakpoint
DROP INDEX "run_variants_acmg_idx";--> statement-breakpoint
DROP INDEX "run_variants_clinvar_idx";--> statement-breakpoint
DROP INDEX "run_variants_zygosity_idx";--> statement-breakpoint
DROP INDEX "run_variants_candidate_idx";--> statement-breakpoint
ALTER TABLE "run_variants" ALTER COLUMN "rank" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX "run_variants_order_idx" ON "run_variants" USING btree ("run_id","rank","score" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "run_variants_gene_order_idx" ON "run_variants" USING btree ("run_id","gene","rank","score" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "run_variants_consequence_order_idx" ON "run_variants" USING btree ("run_id","consequence","rank","score" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "run_variants_acmg_order_idx" ON "run_variants" USING btree ("run_id","acmg_class","rank","score" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "run_variants_clinvar_order_idx" ON "run_variants" USING btree ("run_id","clinvar_significance","rank","score" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "run_variants_zygosity_order_idx" ON "run_variants" USING btree ("run_id","zygosity","rank","score" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "run_variants_candidates_idx" ON "run_variants" USING btree ("run_id","id") WHERE is_candidate;