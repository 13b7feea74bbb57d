-- Calibrated post-test probability per ranked gene (issue 17 item 4); null for runs ranked before it existed.
ALTER TABLE "run_genes" ADD COLUMN "probability" real;
