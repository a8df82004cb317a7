import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What went wrong during one OAuth callback request, for the error page. Auth.js reduces every
 * token-exchange failure to "Configuration"; the provider records the platform's real `error`
 * here and the callback route puts it in the error page's URL.
 */
export interface CallbackFailure {
  stage: "token" | "profile";
  error: string;
}

/**
 * Why the person went to the marketplace's login (lib/actions/auth.ts sets it in a cookie):
 * "connect" makes the account a shop they own; "signin" only signs them in, and the account's
 * token is not kept (a staff member's own account never becomes a shop's connection).
 */
export type SignInIntent = "connect" | "signin";
export const INTENT_COOKIE = "mp-intent";

export interface CallbackStore {
  failure?: CallbackFailure;
  intent?: SignInIntent;
  /** The person already signed in in this browser, if any: a connect adds the shop to them. */
  personId?: string;
}

export const callbackContext = new AsyncLocalStorage<CallbackStore>();

export function recordCallbackFailure(failure: CallbackFailure) {
  const store = callbackContext.getStore();
  if (store && !store.failure) store.failure = failure;
}
