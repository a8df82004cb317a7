import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

/** Auth.js reduces every token-exchange failure to "Configuration": the platform's real error goes here. */
export interface CallbackFailure {
  stage: "token" | "profile";
  error: string;
}

/** "signin" keeps no token, so a staff member's own account never becomes a shop's connection. */
export type SignInIntent = "connect" | "signin";
export const INTENT_COOKIE = "mp-intent";

export interface CallbackStore {
  failure?: CallbackFailure;
  intent?: SignInIntent;
  /** Already signed in here: a connect adds the shop to them. */
  personId?: string;
}

export const callbackContext = new AsyncLocalStorage<CallbackStore>();

export function recordCallbackFailure(failure: CallbackFailure) {
  const store = callbackContext.getStore();
  if (store && !store.failure) store.failure = failure;
}
