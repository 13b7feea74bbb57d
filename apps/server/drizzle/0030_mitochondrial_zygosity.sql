-- Mitochondrial calls stored before 0705e00 hold the GT's nuclear reading ('hemizygous' for a
-- haploid call, 'homozygous' / 'heterozygous' for a diploid one). Since then a call on MT is
-- stored as 'homoplasmic' / 'heteroplasmic' (from FORMAT AF or AD) or 'mitochondrial' (level
-- unknown), never a nuclear zygosity, so an MT row with one is an old row. Those rows kept no
-- heteroplasmy (their genotype has none), so their level is unknown: 'mitochondrial', as the
-- screens already showed them. Without this the zygosity filter 'mitochondrial' (list, TSV,
-- report) missed them while the list showed them as 'mitochondrial'.
UPDATE "run_variants" SET "zygosity" = 'mitochondrial'
WHERE "chrom" = 'MT' AND "zygosity" IN ('hemizygous', 'homozygous', 'heterozygous');
