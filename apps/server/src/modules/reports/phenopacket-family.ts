/**
 * A family case as a GA4GH Phenopacket v2 Family message: the proband's phenopacket (subject
 * named by the proband's sample so it matches the pedigree), one phenopacket per relative (sex;
 * their phenotypes are not recorded by RareLens), the pedigree with affected status, and the
 * joint VCF with each individual's sample column.
 */
import type { Phenopacket, PhenopacketFamily } from '@rarelens/contract';

export interface FamilyForExport {
  proband: string;
  members: { family: string; id: string; father: string | null; mother: string | null; sex: 'male' | 'female' | 'unknown'; status: 'affected' | 'unaffected' | 'unknown'; vcfIndex: number }[];
}

const SEX = { male: 'MALE', female: 'FEMALE', unknown: 'UNKNOWN_SEX' } as const;
const STATUS = { affected: 'AFFECTED', unaffected: 'UNAFFECTED', unknown: 'MISSING' } as const;

/** Wraps a case's phenopacket and its family into a Family message. */
export function buildFamilyPhenopacket(packet: Phenopacket, family: FamilyForExport): PhenopacketFamily {
  const caseId = packet.subject.id;
  const proband = family.members.find((m) => m.id === family.proband);
  const subject = family.proband;
  const probandPacket: Phenopacket = {
    ...packet,
    subject: { id: subject, sex: proband ? SEX[proband.sex] : packet.subject.sex },
    interpretations: packet.interpretations.map((i) => ({
      ...i,
      diagnosis: { ...i.diagnosis, genomicInterpretations: i.diagnosis.genomicInterpretations.map((g) => ({ ...g, subjectOrBiosampleId: subject })) },
    })),
  };
  delete probandPacket.files;
  const relatives: Phenopacket[] = family.members
    .filter((m) => m.id !== family.proband)
    .map((m) => ({ id: `${caseId}-${m.id}`, subject: { id: m.id, sex: SEX[m.sex] }, phenotypicFeatures: [], interpretations: [], metaData: packet.metaData }));
  const sequenced = family.members.filter((m) => m.vcfIndex >= 0);
  const files = (packet.files ?? []).map((f) => ({ uri: f.uri, individualToFileIdentifiers: Object.fromEntries(sequenced.map((m) => [m.id, m.id])), fileAttributes: f.fileAttributes }));
  return {
    id: `${caseId}-family`,
    proband: probandPacket,
    relatives,
    pedigree: {
      persons: family.members.map((m) => ({ familyId: m.family, individualId: m.id, paternalId: m.father ?? '0', maternalId: m.mother ?? '0', sex: SEX[m.sex], affectedStatus: STATUS[m.status] })),
    },
    ...(files.length ? { files } : {}),
    metaData: packet.metaData,
  };
}
