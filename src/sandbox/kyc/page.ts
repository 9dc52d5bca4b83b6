// The hosted KYC page the link of `POST /kyc/{customerCode}/link` opens: plain server-rendered HTML, no
// external assets, where a person picks the outcome of the verification. It then redirects to the link's
// `return_url` (303), or shows a closing message. The token in the path is the only credential, as for a
// hosted page of the service.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxCore } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import { findCustomer } from '../customers/repository.js';
import type { SessionRow } from './repository.js';
import { KYC_OUTCOMES, kycVerification, type KycOutcome } from './verification.js';

export const KYC_PAGE_PATH = '/sandbox/kyc/s';

type Texts = {
  title: string;
  intro: string;
  expires: string;
  choose: string;
  mismatchName: string;
  done: string;
  back: string;
  closed: Record<Exclude<SessionRow['status'], 'open'>, string>;
  unknown: string;
  outcomes: Record<KycOutcome, string>;
};

const TEXTS: Record<'en' | 'fr', Texts> = {
  en: {
    title: 'Identity verification (sandbox)',
    intro: 'This is the sandbox of the hosted verification page. Choose the outcome the service would decide for',
    expires: 'This link expires at',
    choose: 'Outcome',
    mismatchName: 'First name read on the document (identity mismatch only)',
    done: 'Thank you. The verification outcome was recorded; the partner receives it as a kyc.* event.',
    back: 'You can close this page.',
    closed: {
      submitted: 'This verification was already submitted.',
      expired: 'This link has expired. Ask for a new one.',
      replaced: 'A newer link replaced this one.',
    },
    unknown: 'This verification link does not exist.',
    outcomes: {
      approved: 'Approve',
      approved_identity_mismatch: 'Approve, with an identity mismatch',
      rejected: 'Reject',
      abandoned: 'Abandon (leave without finishing)',
      expired: 'Let the session expire',
      resubmission_requested: 'Ask for new documents (resubmission)',
      pending_review: 'Send to manual review',
    },
  },
  fr: {
    title: "Vérification d'identité (sandbox)",
    intro: "Ceci est la page de vérification hébergée du sandbox. Choisissez l'issue que le service déciderait pour",
    expires: 'Ce lien expire le',
    choose: 'Issue',
    mismatchName: "Prénom lu sur le document (divergence d'identité seulement)",
    done: "Merci. L'issue de la vérification est enregistrée ; le partenaire la reçoit par un événement kyc.*.",
    back: 'Vous pouvez fermer cette page.',
    closed: {
      submitted: 'Cette vérification a déjà été soumise.',
      expired: 'Ce lien a expiré. Demandez-en un nouveau.',
      replaced: 'Un lien plus récent remplace celui-ci.',
    },
    unknown: "Ce lien de vérification n'existe pas.",
    outcomes: {
      approved: 'Approuver',
      approved_identity_mismatch: "Approuver, avec une divergence d'identité",
      rejected: 'Refuser',
      abandoned: 'Abandonner',
      expired: 'Laisser la session expirer',
      resubmission_requested: 'Demander de nouveaux documents',
      pending_review: 'Envoyer en revue manuelle',
    },
  },
};

/** The page's language: the link's `locale`, its language without the region, then English. */
function textsFor(locale: string | null): { lang: string; t: Texts } {
  const language = (locale ?? 'en').split('-')[0]!;
  return language === 'fr' ? { lang: 'fr', t: TEXTS.fr } : { lang: 'en', t: TEXTS.en };
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function layout(lang: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}button{display:block;width:100%;margin:.4rem 0;padding:.6rem;font-size:1rem;cursor:pointer}label{display:block;margin:1rem 0 .3rem}input{width:100%;padding:.4rem;font-size:1rem}.note{color:#555}</style>
</head>
<body><h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
}

function html(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply.code(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(page);
}

/** Registers `GET` and `POST ${KYC_PAGE_PATH}/:token`. */
export function kycPage(core: SandboxCore) {
  const kyc = kycVerification(core);
  return async (app: FastifyInstance): Promise<void> => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    const closedPage = (reply: FastifyReply, session: SessionRow | undefined) => {
      const { lang, t } = textsFor(session?.locale ?? null);
      if (!session) return html(reply, 404, layout(lang, t.title, `<p>${t.unknown}</p>`));
      return html(reply, 410, layout(lang, t.title, `<p>${t.closed[session.status as keyof Texts['closed']]}</p>`));
    };

    app.get<{ Params: { token: string } }>(`${KYC_PAGE_PATH}/:token`, async (request, reply) => {
      const session = kyc.session(request.params.token);
      if (session?.status !== 'open') return closedPage(reply, session);
      const { lang, t } = textsFor(session.locale);
      const customer = findCustomer(core, session.account_id, session.customer_code)!;
      const buttons = KYC_OUTCOMES.map(
        (o) => `<button type="submit" name="outcome" value="${o}">${escapeHtml(t.outcomes[o])}</button>`,
      ).join('\n');
      const body = `<p>${t.intro} <strong>${escapeHtml(`${customer.first_name} ${customer.last_name}`)}</strong> (${escapeHtml(customer.date_of_birth)}).</p>
<p class="note">${t.expires} ${core.clock.iso(session.expires_at)}.</p>
<form method="post" action="${KYC_PAGE_PATH}/${session.token}">
<label for="verified_first_name">${t.mismatchName}</label>
<input id="verified_first_name" name="verified_first_name" maxlength="100" autocomplete="off">
<fieldset><legend>${t.choose}</legend>
${buttons}
</fieldset>
</form>`;
      return html(reply, 200, layout(lang, t.title, body));
    });

    app.post<{ Params: { token: string }; Body: Record<string, string> | undefined }>(`${KYC_PAGE_PATH}/:token`, async (request, reply) => {
      const session = kyc.session(request.params.token);
      if (session?.status !== 'open') return closedPage(reply, session);
      const { lang, t } = textsFor(session.locale);
      const form = request.body ?? {};
      const outcome = form.outcome as KycOutcome;
      if (!KYC_OUTCOMES.includes(outcome)) {
        return html(reply, 422, layout(lang, t.title, `<p>${escapeHtml(`Choose one of: ${KYC_OUTCOMES.join(', ')}.`)}</p>`));
      }
      const firstName = form.verified_first_name?.trim();
      try {
        // The page has no key: the outcome is recorded on the clock of the session's account.
        core.clock.within(session.account_id, () =>
          kyc.apply(core.accounts.byId(session.account_id), session.customer_code, {
            outcome,
            ...(outcome === 'approved_identity_mismatch' && firstName
              ? { verified_identity: { first_name: firstName.slice(0, 100) } }
              : {}),
          }),
        );
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return html(reply, error.status, layout(lang, t.title, `<p>${escapeHtml(error.message)}</p>`));
      }
      if (session.return_url) return reply.code(303).header('Location', session.return_url).header('Cache-Control', 'no-store').send();
      return html(reply, 200, layout(lang, t.title, `<p>${t.done}</p><p>${t.back}</p>`));
    });
  };
}
