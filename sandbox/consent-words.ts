// The words of the consent page and its error pages, in English and Brazilian Portuguese: the
// platform's sellers read Portuguese, and a developer may not. The browser's Accept-Language picks
// one (English when it names neither). Everything here is plain text, escaped where it is used.
import { describeScope } from "@marketplace/api/schemas/scopes";
import { bodyTooLargeMessage, byteLimitName } from "./body-limit";

export type ConsentLanguage = "en" | "pt-BR";

/**
 * The language of the highest-weighted entry of `Accept-Language` that is English or Portuguese
 * (any region: `pt`, `pt-PT` read Brazilian Portuguese, the only Portuguese here); ties go to the
 * first listed, and a header naming neither (or none) gets English. `q=0` refuses a language.
 */
export function consentLanguage(acceptLanguage: string | undefined): ConsentLanguage {
  let best: { language: ConsentLanguage; q: number } | null = null;
  for (const entry of (acceptLanguage ?? "").split(",")) {
    const [tag = "", ...parameters] = entry.trim().split(";");
    const primary = tag.trim().toLowerCase().split("-")[0];
    const language: ConsentLanguage | null = primary === "pt" ? "pt-BR" : primary === "en" ? "en" : null;
    if (language === null) continue;
    const qParameter = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith("q="));
    const q = qParameter === undefined ? 1 : Number(qParameter.slice(2));
    if (!Number.isFinite(q) || q <= 0) continue;
    if (best === null || q > best.q) best = { language, q };
  }
  return best?.language ?? "en";
}

/** What each scope lets the application do, in Portuguese (the English is the shared scope catalogue's). */
const SCOPE_PT: Record<string, string> = {
  basic_user_info: "Dados básicos do perfil (nome, e-mail, contato)",
  "conversations-seller:write": "Enviar mensagens no chat e marcar conversas como lidas",
  "conversations-seller:read": "Ver as conversas do chat",
  autoupload: "Publicar anúncios automaticamente",
  "portfolio:write": "Alterar SKUs, estoques e preços",
  "portfolio:read": "Ver SKUs, estoques e preços",
  "order-order:write": "Alterar pedidos (dados de entrega, status)",
  "order-order:read": "Ver pedidos (dados de entrega, status)",
  "order-delivery:read": "Ver entregas (rastreio, status)",
  "order-delivery:write": "Alterar entregas (rastreio, status)",
  "tickets-write": "Atualizar chamados de atendimento",
  "tickets-read": "Ver chamados de atendimento abertos",
};

export interface ConsentWords {
  title: string;
  heading: (app: string) => string;
  /** Around the application's name and client id, which the page sets in bold and code. */
  asks: readonly [before: string, between: string, after: string];
  login: string;
  password: string;
  permissions: string;
  approve: string;
  deny: string;
  /** The demo users, for whoever opens the sandbox's page. */
  users: string;
  chooseDecision: string;
  wrongLogin: string;
  scope: (scope: string) => string;
  errorTitle: string;
  errorHeading: string;
  errorNote: string;
  tooLargeTitle: string;
  tooLarge: (maxBytes: number) => string;
}

const DEMO_USERS = "seller@example.com, seller2@example.com, Seller2@Example.com";

export const CONSENT_WORDS: Record<ConsentLanguage, ConsentWords> = {
  en: {
    title: "Authorize application",
    heading: (app) => `Authorize ${app}`,
    asks: ["", " (", ") asks to act on your behalf on the marketplace."],
    login: "Login (e-mail)",
    password: "Password",
    permissions: "Permissions (uncheck to refuse one)",
    approve: "Approve",
    deny: "Deny",
    users: `Sandbox users: ${DEMO_USERS} (another user), free@example.com (password demo1234).`,
    chooseDecision: "Choose Approve or Deny.",
    wrongLogin: "Login or password is incorrect.",
    scope: (scope) => describeScope(scope) ?? "",
    errorTitle: "Authorization error",
    errorHeading: "Authorization request error",
    errorNote: "The application that sent you here is misconfigured; you were not redirected back to it.",
    tooLargeTitle: "Request too large",
    tooLarge: bodyTooLargeMessage,
  },
  "pt-BR": {
    title: "Autorizar aplicativo",
    heading: (app) => `Autorizar ${app}`,
    asks: ["", " (", ") pede para agir em seu nome no marketplace."],
    login: "Login (e-mail)",
    password: "Senha",
    permissions: "Permissões (desmarque para recusar alguma)",
    approve: "Autorizar",
    deny: "Recusar",
    users: `Usuários do sandbox: ${DEMO_USERS} (outro usuário), free@example.com (senha demo1234).`,
    chooseDecision: "Escolha Autorizar ou Recusar.",
    wrongLogin: "Login ou senha incorretos.",
    scope: (scope) => SCOPE_PT[scope] ?? describeScope(scope) ?? "",
    errorTitle: "Erro de autorização",
    errorHeading: "Erro no pedido de autorização",
    errorNote: "O aplicativo que trouxe você até aqui está mal configurado; você não foi levado de volta a ele.",
    tooLargeTitle: "Pedido grande demais",
    tooLarge: (maxBytes) => `O corpo do pedido passa de ${byteLimitName(maxBytes)} (${maxBytes} bytes)`,
  },
};

/** Why an authorization request is refused without a redirect, in both languages (the parameters' names stay as sent). */
export const NO_REDIRECT_REASONS = {
  clientIdRepeated: { en: "client_id is given more than once.", "pt-BR": "client_id aparece mais de uma vez." },
  redirectUriRepeated: { en: "redirect_uri is given more than once.", "pt-BR": "redirect_uri aparece mais de uma vez." },
  clientIdMissing: { en: "client_id is missing.", "pt-BR": "Falta o client_id." },
  redirectUriRequired: {
    en: "redirect_uri is required: this application registered several redirect URIs.",
    "pt-BR": "redirect_uri é obrigatório: este aplicativo registrou vários redirect URIs.",
  },
  redirectUriInvalid: { en: "redirect_uri is not a valid absolute URL.", "pt-BR": "redirect_uri não é uma URL absoluta válida." },
  redirectUriUnknown: {
    en: "redirect_uri does not match any redirect URI registered for this application.",
    "pt-BR": "redirect_uri não corresponde a nenhum redirect URI registrado para este aplicativo.",
  },
} as const satisfies Record<string, Record<ConsentLanguage, string>>;

export type NoRedirectReason = Record<ConsentLanguage, string>;

export function unknownClient(clientId: string): NoRedirectReason {
  return {
    en: `client_id ${clientId} is not a registered integrator.`,
    "pt-BR": `client_id ${clientId} não é um integrador registrado.`,
  };
}
