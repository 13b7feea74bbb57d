/**
 * Messages between the API process and the analysis thread (engine.thread.ts). Everything is
 * plain data (structured clone): variants, families and rankings cross as values; functions of
 * the AnalysisEngine interface (a candidate's rank, a family's inheritance of a variant) cross
 * as arrays aligned with the variants sent.
 */
import type { AcmgOptions, AnnotatedVariant, Assembly, Family, InheritanceTag } from '@rarelens/engine';
import type { AnnotateInput, EncodedBatch, GeneFacts, RankedDiseaseValue, RankedGeneValue, RankingPatient, RunFamily } from '../analysis-engine.ts';

/** Variants per message from the thread; at most CREDITS messages are unread at any time. */
export const BATCH = 1000;
export const CREDITS = 4;

export interface ThreadInit {
  kbDir: string;
  acmg: AcmgOptions;
  /** Variants per batch (default BATCH). */
  batch?: number;
}

export type ToThread =
  | { op: 'load'; id: number }
  | { op: 'annotate'; id: number; input: Pick<AnnotateInput, 'path' | 'displayName' | 'assembly' | 'pedigree' | 'sample' | 'encodeStored'> }
  | { op: 'more'; id: number }
  | { op: 'abort'; id: number }
  | { op: 'finishFamily'; id: number; stream: number; candidates: AnnotatedVariant[] }
  | { op: 'rank'; id: number; candidates: AnnotatedVariant[]; patient: RankingPatient; family: RunFamily | null }
  /** Candidates as stored-row texts (AnalysisEngine.rankStored): strings cross, the thread decodes them. */
  | { op: 'rankStored'; id: number; rows: string[]; patient: RankingPatient; family: RunFamily | null };

/** An error as it crosses: its name decides how the job treats it (input error or not). */
export interface ThreadError {
  name: string;
  message: string;
  stack?: string;
}

export interface FamilyFinished {
  family: RunFamily;
  candidates: AnnotatedVariant[];
  /** Per candidate: its inheritance, partners as indexes into `candidates`. */
  inheritance: ({ tags: InheritanceTag[]; partners: number[]; rules: string[] } | null)[];
}

export interface Ranked {
  diseases: RankedDiseaseValue[];
  genes: RankedGeneValue[];
  /** Per candidate (or stored row) sent: the engine's rank, or null. */
  variantRanks: (number | null)[];
  /** Facts of every ranked gene (the job stores them with the ranking). */
  geneFacts: Record<string, GeneFacts | null>;
}

export type FromThread =
  | { op: 'loaded'; id: number; softwareVersion: string; kbVersions: Record<string, string> }
  | { op: 'header'; id: number; inputAssembly: Assembly; family: Family | null }
  | { op: 'batch'; id: number; variants: AnnotatedVariant[]; progress: number }
  | { op: 'encoded'; id: number; batch: EncodedBatch; progress: number }
  | { op: 'end'; id: number; counts: Record<string, number> }
  | { op: 'familyFinished'; id: number; result: FamilyFinished }
  | { op: 'ranked'; id: number; result: Ranked }
  | { op: 'failed'; id: number; error: ThreadError };

export function toThreadError(e: unknown): ThreadError {
  if (e instanceof Error) return { name: e.name, message: e.message, ...(e.stack ? { stack: e.stack } : {}) };
  return { name: 'Error', message: String(e) };
}

/** The error rebuilt on this side, with its name (the job tells input errors by name). */
export function fromThreadError(e: ThreadError): Error {
  const error = new Error(e.message);
  error.name = e.name;
  if (e.stack) error.stack = e.stack;
  return error;
}
