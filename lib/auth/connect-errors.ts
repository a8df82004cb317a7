// What the seller reads when connecting fails. Keys are the platform's `error` values (spec:
// Authorization request errors, Token exchange errors), the kinds of a failed basic_user_info
// call, and Auth.js's own error types.

export interface ConnectErrorMessage {
  title: string;
  description: string;
}

const AUTHORIZE: Record<string, ConnectErrorMessage> = {
  access_denied: {
    title: "Access was not granted",
    description:
      "The connection was declined, or your marketplace account has no PRO plan. Only PRO sellers can connect integrations: check your plan on the marketplace, then try again and choose Approve.",
  },
  invalid_scope: {
    title: "The requested permissions were not accepted",
    description:
      "The marketplace rejected the permissions this dashboard asks for as invalid or not available to this application. Ask the dashboard's administrator to check MARKETPLACE_SCOPES.",
  },
  temporarily_unavailable: {
    title: "The marketplace is temporarily unavailable",
    description: "The marketplace is under maintenance or overloaded. Wait a few minutes and try again.",
  },
  server_error: {
    title: "The marketplace had an unexpected problem",
    description: "Something went wrong on the marketplace's side while authorizing. Try again in a moment.",
  },
  invalid_request: {
    title: "The connection request was not accepted",
    description:
      "The marketplace found the authorization request invalid or incomplete. Try again; if it keeps happening, the dashboard's integrator settings need checking.",
  },
  unauthorized_client: {
    title: "This dashboard may not connect accounts",
    description:
      "The marketplace does not allow this integrator application to request access this way. The dashboard's administrator needs to check the application's registration.",
  },
  unsupported_response_type: {
    title: "The connection method is not supported",
    description: "The marketplace does not support the way this dashboard asked for access. Contact the dashboard's administrator.",
  },
};

const TOKEN: Record<string, ConnectErrorMessage> = {
  invalid_grant: {
    title: "The sign-in took too long or was already used",
    description:
      "The authorization the marketplace gave expired (after 10 minutes), was already used, or did not match this dashboard. Start again: it only takes a moment.",
  },
  invalid_client: {
    title: "The dashboard's credentials were refused",
    description:
      "The marketplace did not accept this dashboard's client id or secret. The administrator needs to check MARKETPLACE_CLIENT_ID and MARKETPLACE_CLIENT_SECRET.",
  },
  invalid_request: {
    title: "The marketplace refused the token request",
    description: "The request to finish connecting was malformed. Try again; if it keeps happening, contact the dashboard's administrator.",
  },
  unauthorized_client: {
    title: "This dashboard may not finish connecting",
    description: "The marketplace does not allow this application to exchange authorization codes. Contact the dashboard's administrator.",
  },
  unsupported_grant_type: {
    title: "The connection method is not supported",
    description: "The marketplace does not support the authorization-code exchange this dashboard uses. Contact the dashboard's administrator.",
  },
  invalid_scope: {
    title: "The requested permissions were not accepted",
    description: "The marketplace rejected the permissions while finishing the connection. Try again and approve the requested permissions.",
  },
};

const PROFILE: Record<string, ConnectErrorMessage> = {
  forbidden: {
    title: "Your name and e-mail are needed",
    description:
      "The dashboard identifies your account by the basic profile information (basic_user_info). Try again and keep that permission checked on the consent page.",
  },
  unauthorized: {
    title: "The new connection was refused",
    description: "The marketplace did not accept the token it had just issued. Try again.",
  },
  invalid_response: {
    title: "Your marketplace account has no usable e-mail address",
    description:
      "The dashboard identifies your account by the e-mail address the marketplace gives for it, and that address is empty or not valid. Set a valid e-mail address on your marketplace account, then connect again.",
  },
  identity_conflict: {
    title: "This e-mail address is already connected for another account",
    description:
      "A different marketplace account is already connected to this dashboard with the same e-mail address. To protect both accounts the connection was refused: contact the dashboard's administrator.",
  },
};

const UNAVAILABLE: ConnectErrorMessage = {
  title: "The marketplace could not be reached",
  description: "The dashboard could not talk to the marketplace while connecting. Check that it is up and try again.",
};

const FALLBACK: ConnectErrorMessage = {
  title: "Connecting your account failed",
  description: "Something went wrong while connecting your marketplace account. Try again.",
};

const AUTH_JS: Record<string, ConnectErrorMessage> = {
  AccessDenied: AUTHORIZE.access_denied!,
  OAuthCallbackError: {
    title: "The sign-in could not be verified",
    description: "The answer from the marketplace did not match the sign-in this browser started (for example, it was opened in another tab). Start again.",
  },
  Configuration: FALLBACK,
};

/**
 * The code to show beside the message: only one this page knows (it comes from the URL, which
 * anyone can write: arbitrary text must not be shown as if the dashboard said it).
 */
export function knownConnectErrorCode(error: string | undefined, stage: string | undefined): string | null {
  if (!error) return null;
  const table = stage === "authorize" ? AUTHORIZE : stage === "token" ? TOKEN : stage === "profile" ? PROFILE : AUTH_JS;
  if (Object.hasOwn(table, error)) return error;
  return stage === "token" && /^http_\d{3}$/.test(error) ? error : null;
}

export function describeConnectError(error: string | undefined, stage: string | undefined): ConnectErrorMessage {
  if (!error) return FALLBACK;
  if (stage === "authorize") return AUTHORIZE[error] ?? FALLBACK;
  if (stage === "token") return TOKEN[error] ?? (error.startsWith("http_5") ? UNAVAILABLE : FALLBACK);
  if (stage === "profile") return PROFILE[error] ?? UNAVAILABLE;
  return AUTH_JS[error] ?? FALLBACK;
}
