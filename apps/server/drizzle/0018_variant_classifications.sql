-- Reviewer classifications (issue 17): a signed-in owner sets a variant's class with a reason,
-- per case and GRCh38 allele; who and when are kept (name/e-mail copied for the report).
CREATE TABLE "variant_classifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"chrom" text NOT NULL,
	"pos" integer NOT NULL,
	"ref" text NOT NULL,
	"alt" text NOT NULL,
	"classification" text NOT NULL,
	"reason" text NOT NULL,
	"automatic_class" text NOT NULL,
	"reviewer_id" uuid,
	"reviewer_name" text,
	"reviewer_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "variant_classifications_class" CHECK ("variant_classifications"."classification" in ('Pathogenic', 'Likely pathogenic', 'Uncertain significance', 'Likely benign', 'Benign')),
	CONSTRAINT "variant_classifications_reason_given" CHECK (length(btrim("variant_classifications"."reason")) > 0)
);
--> statement-breakpoint
ALTER TABLE "variant_classifications" ADD CONSTRAINT "variant_classifications_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "variant_classifications" ADD CONSTRAINT "variant_classifications_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "variant_classifications_allele_uq" ON "variant_classifications" USING btree ("product_id","chrom","pos","ref","alt");
