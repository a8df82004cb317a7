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

export const callbackContext = new AsyncLocalStorage<{ failure?: CallbackFailure }>();

export function recordCallbackFailure(failure: CallbackFailure) {
  const store = callbackContext.getStore();
  if (store && !store.failure) store.failure = failure;
}
