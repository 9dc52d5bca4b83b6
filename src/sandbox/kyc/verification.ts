// The KYC state machine of a customer (the interface document's "Customer verification" table): a hosted link
// opens a session; an outcome (chosen on the KYC page, through the simulation API, or by itself when the account
// does not choose outcomes) moves the customer's kyc_status, level and status and sends the `kyc.*` events, in
// one transaction. Approval is billed (`balance.debited`, reason `kyc_verification`).
import { randomBytes } from 'node:crypto';
import type { components as simulation } from '../../../generated/sandbox.js';
import { kycOutcomeRequestOutcomeValues } from '../../../generated/sandbox-values.js';
import type { Account } from '../core/accounts.js';
import { perCore, type SandboxCore } from '../core/context.js';
import { apiError, stateError } from '../core/errors.js';
import { findCustomer, replaceIdentity, restrictCustomer, setVerificationLevel, type CustomerRow } from '../customers/repository.js';
import { autoOutcomeHint } from '../core/auto-outcome-hint.js';
import { defineJob } from '../core/scheduler.js';
import { KYC_FEE_MINOR, VERIFICATION_BALANCE } from './fees.js';
import {
  clearIdentityMismatch,
  insertKycSession,
  kycSessionByToken,
  kycVerificationRow,
  openKycSession,
  replaceOpenKycSessions,
  saveKycVerification,
  setKycSessionStatus,
  type Identity,
  type KycRow,
  type KycStatusValue,
  type SessionRow,
  type VerificationFields,
} from './repository.js';

/** The automatic outcome (an approval) of a verification the account does not choose outcomes of. */
export const KYC_AUTO_JOB = defineJob<{ account: number; customer: string }>(
  'kyc.auto_outcome',
  (core, { account, customer }) => {
    const verification = kycVerification(core);
    if (verification.row(account, customer)?.kyc_status === 'pending' || verification.openSession(account, customer))
      verification.apply(core.accounts.byId(account), customer, { outcome: 'approved' });
  },
  { automatic: true },
);

/** The end of a link's lifetime: its session, still open, expires. */
export const KYC_EXPIRY_JOB = defineJob<{ token: string }>('kyc.session_expiry', (core, { token }) => {
  const session = kycSessionByToken(core, token);
  if (session?.status === 'open')
    kycVerification(core).apply(core.accounts.byId(session.account_id), session.customer_code, { outcome: 'expired' });
});

/** Designed (provisional): a link works 7 days of the clock (the contract's example). */
export const KYC_LINK_LIFETIME_MS = 7 * 24 * 3600 * 1000;

/** The outcomes of a KYC verification (the simulation API's, which the KYC page offers too). */
export const KYC_OUTCOMES = kycOutcomeRequestOutcomeValues;
export type KycOutcome = simulation['schemas']['KycOutcomeRequest']['outcome'];
/** The outcomes that end a manual review. */
const FINAL_OUTCOMES: readonly KycOutcome[] = ['approved', 'approved_identity_mismatch', 'rejected'];

export interface OutcomeChoice {
  outcome: KycOutcome;
  reason?: string;
  /** The identity read on the document (approved_identity_mismatch); by default the declared one with another first name. */
  verified_identity?: Partial<Identity>;
}

const DEFAULT_REASONS: Partial<Record<KycOutcome, string>> = {
  rejected: 'document_rejected',
  abandoned: 'abandoned_by_user',
  expired: 'session_expired',
  resubmission_requested: 'document_unreadable',
};

const declaredOf = (c: CustomerRow): Identity => ({ first_name: c.first_name, last_name: c.last_name, date_of_birth: c.date_of_birth });

export class KycVerification {
  private readonly core: SandboxCore;

  constructor(core: SandboxCore) {
    this.core = core;
  }

  row(accountId: number, customerCode: string): KycRow | undefined {
    return kycVerificationRow(this.core, accountId, customerCode);
  }

  openSession(accountId: number, customerCode: string): SessionRow | undefined {
    return openKycSession(this.core, accountId, customerCode);
  }

  session(token: string): SessionRow | undefined {
    return kycSessionByToken(this.core, token);
  }

  statusOf(customer: CustomerRow): KycStatusValue {
    return this.row(customer.account_id, customer.code)?.kyc_status ?? 'not_started';
  }

  /**
   * Opens a session (an earlier open one is replaced) and schedules its expiry and, unless manual, its approval;
   * a customer already approved needs none.
   */
  createSession(account: Account, customer: CustomerRow, options: { return_url?: string; locale?: string }): SessionRow {
    const { db, clock, scheduler } = this.core;
    if (this.statusOf(customer) === 'approved') {
      throw stateError('kyc_already_approved', "The customer's KYC is already approved: no new link is needed.", 'approved');
    }
    return db.transaction(() => {
      const now = clock.now();
      replaceOpenKycSessions(this.core, account.id, customer.code);
      const session: SessionRow = {
        token: randomBytes(12).toString('hex'),
        account_id: account.id,
        customer_code: customer.code,
        return_url: options.return_url ?? null,
        locale: options.locale ?? null,
        status: 'open',
        expires_at: now + KYC_LINK_LIFETIME_MS,
        created_at: now,
      };
      insertKycSession(this.core, session);
      scheduler.schedule(KYC_EXPIRY_JOB, session.expires_at, { token: session.token });
      if (!account.manual)
        scheduler.schedule(KYC_AUTO_JOB, now + this.core.autoCompleteMs, { account: account.id, customer: customer.code });
      return session;
    });
  }

  /**
   * Applies an outcome to the customer's verification: it needs an open link, or a manual review under way
   * (which takes only a final outcome). 422 otherwise.
   */
  apply(account: Account, customerCode: string, choice: OutcomeChoice): KycRow {
    const { db, clock, outbox } = this.core;
    return db.transaction(() => {
      const customer = findCustomer(this.core, account.id, customerCode)!;
      const session = this.openSession(account.id, customerCode);
      this.checkAwaitsOutcome(account, this.row(account.id, customerCode), session, choice.outcome);
      const now = clock.now();
      const base = { customer_code: customer.code, external_reference: customer.external_reference };
      const sessionStatus = choice.outcome === 'expired' ? 'expired' : choice.outcome === 'resubmission_requested' ? 'open' : 'submitted';
      if (session) setKycSessionStatus(this.core, session.token, sessionStatus);
      const save = (status: KycStatusValue, fields: VerificationFields) =>
        saveKycVerification(this.core, account.id, customer.code, status, fields, now);

      switch (choice.outcome) {
        case 'approved':
        case 'approved_identity_mismatch':
          this.approve(account, customer, choice, now);
          break;
        case 'pending_review':
          save('pending', {});
          outbox.emit(account, 'kyc.pending_review', { ...base, kyc_status: 'pending', verification_level: customer.verification_level });
          if (!account.manual)
            this.core.scheduler.schedule(KYC_AUTO_JOB, now + this.core.autoCompleteMs, { account: account.id, customer: customer.code });
          break;
        case 'resubmission_requested': {
          const reason = choice.reason ?? DEFAULT_REASONS.resubmission_requested!;
          save('resubmission_requested', { reason });
          outbox.emit(account, 'kyc.resubmission_requested', {
            ...base,
            kyc_status: 'resubmission_requested',
            verification_level: customer.verification_level,
            reason,
          });
          break;
        }
        case 'rejected':
        case 'abandoned':
        case 'expired': {
          const status = choice.outcome === 'expired' ? 'expired' : 'rejected';
          const reason = choice.reason ?? DEFAULT_REASONS[choice.outcome]!;
          save(status, { reason });
          outbox.emit(account, choice.outcome === 'expired' ? 'kyc.expired' : 'kyc.rejected', {
            ...base,
            kyc_status: status,
            verification_level: customer.verification_level,
            reason,
          });
          break;
        }
      }
      return this.row(account.id, customer.code)!;
    });
  }

  /** 422 unless a link is open or a manual review is under way (which takes only a final outcome). */
  private checkAwaitsOutcome(account: Account, current: KycRow | undefined, session: SessionRow | undefined, outcome: KycOutcome): void {
    const reviewing = current?.kyc_status === 'pending';
    if (!session && !reviewing) {
      const status = current?.kyc_status ?? 'not_started';
      const message =
        status === 'not_started'
          ? 'No KYC verification of this customer waits for an outcome: create a link first (POST /kyc/{customerCode}/link).'
          : status === 'approved'
            ? `The customer's KYC is already approved: no verification waits for an outcome.${autoOutcomeHint(this.core, account)}`
            : `The customer's last KYC verification ended (${status}): create a new link (POST /kyc/{customerCode}/link) to choose another outcome.${autoOutcomeHint(this.core, account)}`;
      throw apiError('VALIDATION_ERROR', message, { fields: [], current_status: status });
    }
    if (reviewing && !session && !FINAL_OUTCOMES.includes(outcome)) {
      throw apiError('VALIDATION_ERROR', `A manual review ends with approved, approved_identity_mismatch or rejected, not ${outcome}.`, {
        fields: [{ field: 'outcome', message: 'must be approved, approved_identity_mismatch or rejected during a manual review' }],
        current_status: 'pending',
      });
    }
  }

  /** An approval: verified level, billed; with an identity mismatch, the customer restricted until synchronized. */
  private approve(account: Account, customer: CustomerRow, choice: OutcomeChoice, now: number): void {
    const { clock, outbox, ledger } = this.core;
    const base = { customer_code: customer.code, external_reference: customer.external_reference };
    const declared = declaredOf(customer);
    const mismatch = choice.outcome === 'approved_identity_mismatch';
    const verified: Identity = mismatch
      ? ({ first_name: `${declared.first_name}-Marie`, ...stripUndefined(choice.verified_identity ?? {}) } as Identity)
      : declared;
    if (mismatch) {
      verified.last_name ??= declared.last_name;
      verified.date_of_birth ??= declared.date_of_birth;
    }
    const differs =
      verified.first_name !== declared.first_name ||
      verified.last_name !== declared.last_name ||
      verified.date_of_birth !== declared.date_of_birth;
    if (mismatch && !differs) {
      throw apiError('VALIDATION_ERROR', 'An identity mismatch needs a verified identity that differs from the declared one.', {
        fields: [{ field: 'verified_identity', message: 'must differ from the declared identity' }],
      });
    }
    const status = mismatch ? 'restricted' : customer.status;
    setVerificationLevel(this.core, customer.code, 'verified');
    if (mismatch) restrictCustomer(this.core, customer.code, 'identity_mismatch');
    saveKycVerification(this.core, account.id, customer.code, 'approved', { mismatch, approvedAt: now, verified }, now);
    ledger.debit(account, VERIFICATION_BALANCE, KYC_FEE_MINOR, {
      reason: 'kyc_verification',
      description: `KYC verification of customer ${customer.code}`,
      customerCode: customer.code,
      allowNegative: true,
    });
    outbox.emit(account, 'kyc.approved', {
      ...base,
      kyc_status: 'approved',
      verification_level: 'verified',
      approved_at: clock.iso(now),
      verified_identity: verified,
      identity_mismatch: mismatch,
      status: status === 'restricted' ? 'restricted' : 'active',
    });
    if (mismatch) {
      outbox.emit(account, 'kyc.identity_mismatch', {
        ...base,
        declared_identity: declared,
        verified_identity: verified,
        status: 'restricted',
        restriction_reason: 'identity_mismatch',
        required_action: 'synchronize_identity',
      });
    }
  }

  /** Replaces the declared identity by the verified one and lifts the identity-mismatch restriction (only a mismatch's). */
  synchronize(account: Account, customer: CustomerRow): CustomerRow {
    const { db, outbox } = this.core;
    if (customer.status !== 'restricted' || customer.restriction_reason !== 'identity_mismatch')
      throw stateError(
        'identity_not_mismatched',
        'Only a customer restricted for an identity mismatch can be synchronized.',
        customer.status,
      );
    return db.transaction(() => {
      const verified = JSON.parse(this.row(account.id, customer.code)!.verified_identity!) as Identity;
      replaceIdentity(this.core, customer.code, verified);
      clearIdentityMismatch(this.core, customer.code);
      const updated = findCustomer(this.core, account.id, customer.code)!;
      outbox.emit(account, 'kyc.identity_synchronized', {
        customer_code: updated.code,
        external_reference: updated.external_reference,
        ...verified,
        status: 'active',
      });
      return updated;
    });
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The KYC state machine of a sandbox (one per core), shared by the KYC handlers, the page and the simulation API. */
export const kycVerification = perCore((core) => new KycVerification(core));
