/**
 * Sharing a case (read-only) by e-mail. Sharing e-mails the recipient a `/shared/{token}` link
 * (256-bit random token, only its sha256 stored, expiring after RARELENS_SHARE_LINK_DAYS) and lets
 * a recipient with an account read the case under "Shared with me". Only the owner lists and
 * changes the shares; unsharing kills every link of that e-mail at once. Shares, unshares and
 * link openings go to the owner's activity log.
 */
import { ErrorCode, SHARED_PHENOTYPES_LIMIT, type SharedProductResponse, type ShareSettingsResponse } from '@rarelens/contract';
import type { Database } from '../../db/database.ts';
import type { Ontology } from '@rarelens/engine';
import { AppError } from '../../errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { ActivityRecorder, RequestOrigin } from '../activity/activity.service.ts';
import type { TokenService } from '../auth/token.service.ts';
import type { CaseAccess, Caller } from '../cases/cases.service.ts';
import type { PhenotypesService } from '../phenotypes/phenotypes.service.ts';
import { shareMail } from './sharing.mails.ts';
import { presentSharedProduct, presentShareSettings } from './sharing.presenter.ts';
import * as repo from './sharing.repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface SharingServiceDeps {
  database: Database;
  access: CaseAccess;
  tokens: Pick<TokenService, 'createOpaqueToken' | 'hashOpaqueToken'>;
  mailer: Mailer;
  activity: ActivityRecorder;
  /** The best-ranked phenotypes of a run (shown on /shared/{token}). */
  phenotypes: Pick<PhenotypesService, 'topOfRun'>;
  ontology: () => Promise<Ontology | null>;
  config: { publicUrl: string; shareLinkTtlDays: number };
}

/** Same answer for an unknown, expired or revoked link: a token says nothing about why it fails. */
function linkNotFound(): AppError {
  return new AppError(404, ErrorCode.notFound, 'This share link does not exist, has expired or was unshared');
}

export function createSharingService(deps: SharingServiceDeps) {
  const db = deps.database.db;
  const { config } = deps;
  return {
    /** The e-mails a case is shared with (no access check: for the case details). */
    emailsOf: (caseId: string): Promise<string[]> => repo.listShares(db, caseId),

    async list(user: Caller, id: string) {
      const { caseRow } = await deps.access.check(user, id, 'share');
      return { emails: await repo.listShares(db, caseRow.id) };
    },

    /**
     * Shares the case with `email` and e-mails the link. The share, the link and the activity
     * event are written in one transaction that also sends the mail: if the mail cannot be
     * sent, nothing is stored and the caller gets the error.
     */
    async share(user: Caller, id: string, email: string, origin: RequestOrigin = {}) {
      const { caseRow } = await deps.access.check(user, id, 'share');
      if (email === user.email) throw new AppError(400, ErrorCode.badRequest, 'You cannot share a case with yourself');
      const { token, hash } = deps.tokens.createOpaqueToken();
      const expiresAt = new Date(Date.now() + config.shareLinkTtlDays * DAY_MS);
      const [sender, recipient] = await Promise.all([repo.accountNames(db, { id: user.id }), repo.accountNames(db, { email })]);
      await db.transaction(async (tx) => {
        await repo.addShare(tx, caseRow.id, email);
        await repo.insertLink(tx, { productId: caseRow.id, email, tokenHash: hash, expiresAt });
        await deps.activity.record(user.id, 'share_created', { caseId: caseRow.caseId, email }, origin, tx);
        await deps.mailer.send(
          shareMail({
            to: email,
            recipientName: recipient ? recipient.name : null,
            sender: sender ?? { name: '', surname: '', email: user.email },
            caseId: caseRow.caseId,
            link: `${config.publicUrl}/shared/${token}`,
            expiresAt,
            homeUrl: `${config.publicUrl}/home`,
          }),
        );
      });
      return { emails: await repo.listShares(db, caseRow.id) };
    },

    /** Unshares: the recipient loses access and every link sent to them stops working at once. */
    async unshare(user: Caller, id: string, email: string, origin: RequestOrigin = {}) {
      const { caseRow } = await deps.access.check(user, id, 'share');
      await db.transaction(async (tx) => {
        const removed = await repo.removeShare(tx, caseRow.id, email);
        const revoked = await repo.revokeLinks(tx, caseRow.id, email);
        if (!removed && revoked === 0) {
          throw new AppError(404, ErrorCode.notFound, 'The case is not shared with this e-mail');
        }
        await deps.activity.record(user.id, 'share_revoked', { caseId: caseRow.caseId, email }, origin, tx);
      });
      return { emails: await repo.listShares(db, caseRow.id) };
    },

    /** Every share of the caller's cases (share settings). */
    async settings(user: Caller): Promise<ShareSettingsResponse> {
      return presentShareSettings(await repo.listOwnerShares(db, user.id), new Date());
    },

    /** The shared case behind a link, read-only and without login; counts the opening. */
    async open(token: string): Promise<SharedProductResponse> {
      const found = await repo.findLinkByTokenHash(db, deps.tokens.hashOpaqueToken(token));
      if (found === null || !found.stillShared || found.link.revokedAt !== null || found.link.expiresAt <= new Date()) {
        throw linkNotFound();
      }
      const { link, caseRow } = found;
      await db.transaction(async (tx) => {
        await repo.recordOpen(tx, link.id);
        await deps.activity.record(
          caseRow.ownerId,
          'share_opened',
          { caseId: caseRow.caseId, email: link.email, via: 'link' },
          // The owner's log: the opener's address and browser are not the owner's to keep.
          {},
          tx,
        );
      });
      const phenotypes = caseRow.currentRunId ? await deps.phenotypes.topOfRun(caseRow.currentRunId, SHARED_PHENOTYPES_LIMIT) : [];
      const ontology = await deps.ontology().catch(() => null);
      return presentSharedProduct(found, phenotypes, (termId) => ontology?.label(termId) ?? termId);
    },
  };
}

export type SharingService = ReturnType<typeof createSharingService>;
