-- Session cache of the API processes (modules/auth/session-cache.ts): a change to a user's row or to any of their refresh tokens (logout, password change or reset, token reuse, rotation, account deletion) notifies every process in the same transaction, so a cached live session ends at the commit everywhere; a truncate ends them all.
CREATE FUNCTION "rarelens_auth_notify_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- TG_ARGV[0]: the column holding the user id ('id' on users, 'user_id' on refresh_tokens).
  PERFORM pg_notify('rarelens_auth', to_jsonb(OLD) ->> TG_ARGV[0]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "rarelens_auth_notify_all"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rarelens_auth', '*');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_auth_notify" AFTER UPDATE OR DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "rarelens_auth_notify_user"('id');
--> statement-breakpoint
CREATE TRIGGER "refresh_tokens_auth_notify" AFTER UPDATE OR DELETE ON "refresh_tokens" FOR EACH ROW EXECUTE FUNCTION "rarelens_auth_notify_user"('user_id');
--> statement-breakpoint
CREATE TRIGGER "users_auth_notify_truncate" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "rarelens_auth_notify_all"();
--> statement-breakpoint
CREATE TRIGGER "refresh_tokens_auth_notify_truncate" AFTER TRUNCATE ON "refresh_tokens" FOR EACH STATEMENT EXECUTE FUNCTION "rarelens_auth_notify_all"();
