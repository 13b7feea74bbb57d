-- Case access cache of the API processes (modules/cases/case-access-cache.ts): a change to a case's row, its shares or its analysis runs notifies every process in the same transaction, naming the case, so a cached access answer (case row, owner, current run's stored-variant count and ranking time) ends at the commit everywhere; a truncate ends them all. Users' changes already notify on rarelens_auth (0024), which empties the whole cache.
CREATE FUNCTION "rarelens_case_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- TG_ARGV[0]: the column holding the case id ('id' on products, 'product_id' on the others).
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('rarelens_case', to_jsonb(OLD) ->> TG_ARGV[0]);
  ELSE
    PERFORM pg_notify('rarelens_case', to_jsonb(NEW) ->> TG_ARGV[0]);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "rarelens_case_notify_all"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rarelens_case', '*');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "products_case_notify" AFTER INSERT OR UPDATE OR DELETE ON "products" FOR EACH ROW EXECUTE FUNCTION "rarelens_case_notify"('id');
--> statement-breakpoint
CREATE TRIGGER "product_shares_case_notify" AFTER INSERT OR UPDATE OR DELETE ON "product_shares" FOR EACH ROW EXECUTE FUNCTION "rarelens_case_notify"('product_id');
--> statement-breakpoint
CREATE TRIGGER "analysis_runs_case_notify" AFTER INSERT OR UPDATE OR DELETE ON "analysis_runs" FOR EACH ROW EXECUTE FUNCTION "rarelens_case_notify"('product_id');
--> statement-breakpoint
CREATE TRIGGER "products_case_notify_truncate" AFTER TRUNCATE ON "products" FOR EACH STATEMENT EXECUTE FUNCTION "rarelens_case_notify_all"();
--> statement-breakpoint
CREATE TRIGGER "product_shares_case_notify_truncate" AFTER TRUNCATE ON "product_shares" FOR EACH STATEMENT EXECUTE FUNCTION "rarelens_case_notify_all"();
--> statement-breakpoint
CREATE TRIGGER "analysis_runs_case_notify_truncate" AFTER TRUNCATE ON "analysis_runs" FOR EACH STATEMENT EXECUTE FUNCTION "rarelens_case_notify_all"();
