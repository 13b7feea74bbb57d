-- Raw data analysis (issue 12): the stage shown while a case is Processing, and what the
-- FASTQ -> BAM -> VCF stage produced for a run (files in storage, QC, reference, tools, commands).
ALTER TABLE "products" ADD COLUMN "progress_stage" text;
--> statement-breakpoint
CREATE TABLE "read_alignments" (
	"run_id" uuid PRIMARY KEY NOT NULL,
	"product_id" uuid NOT NULL,
	"layout" text NOT NULL,
	"reference" jsonb NOT NULL,
	"qc" jsonb NOT NULL,
	"tools" jsonb NOT NULL,
	"commands" jsonb NOT NULL,
	"bam_key" text NOT NULL,
	"bai_key" text NOT NULL,
	"vcf_key" text NOT NULL,
	"tbi_key" text NOT NULL,
	"bam_bytes" bigint NOT NULL,
	"vcf_bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "read_alignments_layout" CHECK ("read_alignments"."layout" in ('single', 'paired', 'interleaved'))
);
--> statement-breakpoint
ALTER TABLE "read_alignments" ADD CONSTRAINT "read_alignments_run_id_analysis_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."analysis_runs"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "read_alignments" ADD CONSTRAINT "read_alignments_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "read_alignments_product_idx" ON "read_alignments" USING btree ("product_id");
