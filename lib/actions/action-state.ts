// The one shape every server action answers with, so that every form reads its outcome the same
// way: a status, a sentence for the seller, errors keyed by field path, the platform problem when
// the platform is why it failed, and what the outcome carries (`data`). `at` tells a form that a
// new outcome arrived (two identical outcomes in a row are still two answers). Plain module: the
// forms (client components) and the actions ("use server" modules, which may only export async
// functions) both import it.
import type { PlatformProblem } from "@/lib/platform-problem";

/** Messages keyed by field path: `amount`, `url`, `dimensions[0].height.value`. */
export type FieldErrors = Record<string, string[]>;

interface Answered {
  message: string;
  fieldErrors: FieldErrors;
  problem?: PlatformProblem;
  at: number;
}

export type ActionState<Success = null, Failure = null> =
  | { status: "idle" }
  | (Answered & { status: "success"; data: Success })
  | (Answered & { status: "error"; data: Failure | null });

/** What an action called directly (not through a form) answers: never idle. */
export type ActionAnswer<Success = null, Failure = null> = Exclude<ActionState<Success, Failure>, { status: "idle" }>;

export const idle = { status: "idle" } as const;

export function succeeded<Success>(message: string, data: Success): Answered & { status: "success"; data: Success } {
  return { status: "success", message, fieldErrors: {}, data, at: Date.now() };
}

export function failed<Failure = null>(
  message: string,
  options: { fieldErrors?: FieldErrors; problem?: PlatformProblem; data?: Failure } = {},
): Answered & { status: "error"; data: Failure | null } {
  return {
    status: "error",
    message,
    fieldErrors: options.fieldErrors ?? {},
    ...(options.problem ? { problem: options.problem } : {}),
    data: options.data ?? null,
    at: Date.now(),
  };
}

/** The first message for a field, or undefined: most fields show one. */
export const firstError = (errors: FieldErrors, path: string): string | undefined => errors[path]?.[0];
