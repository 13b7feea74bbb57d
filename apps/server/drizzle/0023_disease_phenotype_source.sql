-- Where a ranked disease's phenotype comes from (engine DiseaseRanking.phenotypeSource: 'annotations' | 'series' | 'disease-name'; issue 17); null for runs ranked before it was stored.
ALTER TABLE "run_phenotypes" ADD COLUMN "phenotype_source" text;
