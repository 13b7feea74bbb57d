-- Share links (issue 18): the /shared/{token} link e-mailed when a case is shared. Only the
-- sha256 of the token is stored; a link expires (RARELENS_SHARE_LINK_DAYS, default 30) and dies
-- when the owner unshares. Shares made before links existed get a row without a token, so the
-- share settings list every share.
CREATE TABLE "share_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_opened_at" timestamp with time zone,
	"open_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "share_links_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "share_links_email_lower_case" CHECK ("share_links"."email" = lower("share_links"."email")),
	CONSTRAINT "share_links_open_count_non_negative" CHECK ("share_links"."open_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "share_links_product_email_idx" ON "share_links" USING btree ("product_id","email","created_at");
--> statement-breakpoint
INSERT INTO "share_links" ("product_id", "email", "created_at", "expires_at")
SELECT "product_id", "email", "created_at", "created_at" + interval '30 days' FROM "product_shares";
