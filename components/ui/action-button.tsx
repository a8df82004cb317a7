"use client";

import type { ComponentProps } from "react";

/**
 * A button whose work is done in the browser, as the submit button of a form with a function
 * action: React's server HTML queues a click made before the page's scripts ran and replays it
 * once they have (React replays form actions, never plain clicks). Not for use inside another
 * form (forms do not nest): there, give a submit button a function `formAction`.
 */
export function ActionButton({
  action,
  ...button
}: { action: () => void } & Omit<ComponentProps<"button">, "type" | "onClick" | "formAction">) {
  return (
    <form action={action} className="contents">
      <button type="submit" {...button} />
    </form>
  );
}
