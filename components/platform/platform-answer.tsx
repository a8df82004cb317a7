import { Suspense } from "react";
import type { ReactNode } from "react";

/**
 * How long a detail page waits for the platform before sending its placeholder (decision 0007).
 * The platform usually answers well within it; a placeholder shown for a shorter answer only delays
 * the page: React reveals streamed content no sooner than 300 ms after the first paint.
 */
export const PLATFORM_ANSWER_BUDGET_MS = 400;

interface PlatformAnswerProps<T> {
  /** The platform's answer, already asked for. */
  answer: Promise<T>;
  /** What the page shows while a slow answer is awaited. */
  placeholder: ReactNode;
  children: (value: T) => ReactNode;
}

/**
 * `children` drawn from the platform's answer: an answer within the budget is in the page's first
 * bytes, whole (and a not-found one answers HTTP 404); a slower one streams in after `placeholder`.
 */
export async function PlatformAnswer<T>({ answer, placeholder, children }: PlatformAnswerProps<T>) {
  const quick = await settledWithin(answer, PLATFORM_ANSWER_BUDGET_MS);
  if (quick) return children(quick.value);
  return (
    <Suspense fallback={placeholder}>
      <Answered answer={answer}>{children}</Answered>
    </Suspense>
  );
}

async function Answered<T>({ answer, children }: Pick<PlatformAnswerProps<T>, "answer" | "children">) {
  return children(await answer);
}

/** `{ value }` if `promise` resolves within `ms`, else null; its rejection within `ms` is thrown. */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<{ value: T } | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(resolve, ms, null);
  });
  try {
    return await Promise.race([promise.then((value) => ({ value })), late]);
  } finally {
    clearTimeout(timer);
  }
}
