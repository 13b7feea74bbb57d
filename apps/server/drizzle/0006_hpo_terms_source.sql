-- Where a case's HPO terms came from: 'given' by the user, or 'phenome' = extracted by the server
-- with PhenomeAI (shipped configuration) from the symptoms when none were sent.
ALTER TABLE "products" ADD COLUMN "hpo_terms_source" text DEFAULT 'given' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_hpo_terms_source" CHECK ("products"."hpo_terms_source" in ('given', 'phenome'));
