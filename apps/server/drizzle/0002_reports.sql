CREATE TABLE "report_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"variant_id" integer NOT NULL,
	"chrom" text NOT NULL,
	"pos" integer NOT NULL,
	"ref" text NOT NULL,
	"alt" text NOT NULL,
	"gene" text,
	"added_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"run_id" uuid,
	"created_by" uuid,
	"file_name" text NOT NULL,
	"storage_key" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"page_count" integer NOT NULL,
	"variant_count" integer NOT NULL,
	"interpretation" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_size_positive" CHECK ("reports"."size_bytes" > 0)
);
--> statement-breakpoint
ALTER TABLE "report_items" ADD CONSTRAINT "report_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_items" ADD CONSTRAINT "report_items_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "report_items_allele_uq" ON "report_items" USING btree ("product_id","chrom","pos","ref","alt");--> statement-breakpoint
CREATE INDEX "report_items_product_created_idx" ON "report_items" USING btree ("product_id","created_at");--> statement-breakpoint
CREATE INDEX "reports_product_created_idx" ON "reports" USING btree ("product_id","created_at");