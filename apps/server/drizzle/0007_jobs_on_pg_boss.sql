-- The job queue moved to pg-boss (schema "pgboss", created and migrated by pg-boss itself at start).
DROP TABLE IF EXISTS "jobs";
