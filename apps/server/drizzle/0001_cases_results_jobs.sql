CREATE TABLE "analysis_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"job_id" uuid,
	"state" text DEFAULT 'running' NOT NULL,
	"software_version" text NOT NULL,
	"kb_versions" jsonb NOT NULL,
	"assembly" text NOT NULL,
	"input_assembly" text NOT NULL,
	"hpo_terms" jsonb NOT NULL,
	"excluded_terms" jsonb NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"ranked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"role" text NOT NULL,
	"original_name" text NOT NULL,
	"storage_key" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"format" text NOT NULL,
	"compression" text,
	"media_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_shares" (
	"product_id" uuid NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_shares_product_id_email_pk" PRIMARY KEY("product_id","email"),
	CONSTRAINT "product_shares_email_lower_case" CHECK ("product_shares"."email" = lower("product_shares"."email"))
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"case_id" text NOT NULL,
	"gender" text NOT NULL,
	"symptoms" text NOT NULL,
	"hpo_terms" jsonb NOT NULL,
	"excluded_terms" jsonb NOT NULL,
	"assembly_requested" text NOT NULL,
	"assembly" text,
	"genome_format" text NOT NULL,
	"image_description" text,
	"status" text DEFAULT 'In queue' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"error_reason" text,
	"current_run_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_progress_range" CHECK ("products"."progress" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "run_genes" (
	"run_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"rank" integer NOT NULL,
	"hgnc_id" text,
	"name" text,
	"chromosome" text,
	"locus_type" text,
	"description" text,
	"synonyms" jsonb NOT NULL,
	"score" real NOT NULL,
	"phenotype_score" real NOT NULL,
	"variant_score" real NOT NULL,
	"significance" text,
	"inheritance" jsonb NOT NULL,
	"onset" jsonb NOT NULL,
	"explanation" jsonb NOT NULL,
	"diseases" jsonb NOT NULL,
	"variant_count" integer NOT NULL,
	CONSTRAINT "run_genes_run_id_symbol_pk" PRIMARY KEY("run_id","symbol")
);
--> statement-breakpoint
CREATE TABLE "run_phenotypes" (
	"run_id" uuid NOT NULL,
	"disease_id" text NOT NULL,
	"rank" integer NOT NULL,
	"name" text NOT NULL,
	"score" real NOT NULL,
	"probability" real NOT NULL,
	"significance" text,
	"inheritance" jsonb NOT NULL,
	"onset" jsonb NOT NULL,
	"genes" jsonb NOT NULL,
	"matched_terms" jsonb NOT NULL,
	"explanation" jsonb NOT NULL,
	"merged_ids" jsonb NOT NULL,
	CONSTRAINT "run_phenotypes_run_id_disease_id_pk" PRIMARY KEY("run_id","disease_id")
);
--> statement-breakpoint
CREATE TABLE "run_variants" (
	"run_id" uuid NOT NULL,
	"id" integer NOT NULL,
	"rank" integer NOT NULL,
	"chrom" text NOT NULL,
	"pos" integer NOT NULL,
	"ref" text NOT NULL,
	"alt" text NOT NULL,
	"gene" text,
	"hgnc_id" text,
	"transcript" text,
	"is_mane_select" boolean DEFAULT false NOT NULL,
	"consequence" text,
	"consequences" jsonb NOT NULL,
	"impact" text NOT NULL,
	"hgvs_c" text,
	"hgvs_p" text,
	"af" real,
	"af_source" text,
	"clinvar_significance" text,
	"clinvar" jsonb,
	"acmg_class" text NOT NULL,
	"acmg_points" integer NOT NULL,
	"acmg_criteria" jsonb NOT NULL,
	"zygosity" text NOT NULL,
	"genotype" jsonb NOT NULL,
	"qual" real,
	"filter" jsonb NOT NULL,
	"score" real NOT NULL,
	"is_candidate" boolean NOT NULL,
	"input" jsonb NOT NULL,
	CONSTRAINT "run_variants_run_id_id_pk" PRIMARY KEY("run_id","id")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"queue" text NOT NULL,
	"payload" jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_by" text,
	"heartbeat_at" timestamp with time zone,
	"last_error" text,
	"singleton_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "analysis_runs" ADD CONSTRAINT "analysis_runs_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_files" ADD CONSTRAINT "product_files_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_shares" ADD CONSTRAINT "product_shares_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_genes" ADD CONSTRAINT "run_genes_run_id_analysis_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."analysis_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_phenotypes" ADD CONSTRAINT "run_phenotypes_run_id_analysis_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."analysis_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_variants" ADD CONSTRAINT "run_variants_run_id_analysis_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."analysis_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analysis_runs_product_idx" ON "analysis_runs" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "product_files_product_idx" ON "product_files" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "product_shares_email_idx" ON "product_shares" USING btree ("email");--> statement-breakpoint
CREATE INDEX "products_owner_created_idx" ON "products" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "run_genes_rank_idx" ON "run_genes" USING btree ("run_id","rank");--> statement-breakpoint
CREATE INDEX "run_phenotypes_rank_idx" ON "run_phenotypes" USING btree ("run_id","rank");--> statement-breakpoint
CREATE INDEX "run_variants_rank_idx" ON "run_variants" USING btree ("run_id","rank");--> statement-breakpoint
CREATE INDEX "run_variants_gene_idx" ON "run_variants" USING btree ("run_id","gene","rank");--> statement-breakpoint
CREATE INDEX "run_variants_consequence_idx" ON "run_variants" USING btree ("run_id","consequence","rank");--> statement-breakpoint
CREATE INDEX "run_variants_acmg_idx" ON "run_variants" USING btree ("run_id","acmg_class","rank");--> statement-breakpoint
CREATE INDEX "run_variants_clinvar_idx" ON "run_variants" USING btree ("run_id","clinvar_significance","rank");--> statement-breakpoint
CREATE INDEX "run_variants_zygosity_idx" ON "run_variants" USING btree ("run_id","zygosity","rank");--> statement-breakpoint
CREATE INDEX "run_variants_position_idx" ON "run_variants" USING btree ("run_id","chrom","pos");--> statement-breakpoint
CREATE INDEX "run_variants_candidate_idx" ON "run_variants" USING btree ("run_id","rank") WHERE is_candidate;--> statement-breakpoint
CREATE INDEX "jobs_claim_idx" ON "jobs" USING btree ("queue","run_after") WHERE state = 'queued';--> statement-breakpoint
CREATE INDEX "jobs_active_heartbeat_idx" ON "jobs" USING btree ("heartbeat_at") WHERE state = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_singleton_idx" ON "jobs" USING btree ("singleton_key") WHERE state in ('queued', 'active');