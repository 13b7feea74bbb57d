import { defineConfig } from 'drizzle-kit';

// One schema and one migration set for PostgreSQL and PGlite.
// Generate after changing apps/server/src/db/schema: `cd apps/server && npx drizzle-kit generate --name <change>`.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/*.ts',
  out: './drizzle',
});
