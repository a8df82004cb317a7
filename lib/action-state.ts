// One answer shape for every server action (decision 0005). A plain module, because "use server"
// modules may only export async functions.
import type { PlatformProblem } from "@/lib/platform-problem";

/** Keyed by field path: `dimensions[0].height.value`. */
export type FieldErrors = Record<string, string[]>;

interface Answered {
  message: string;
  fieldErrors: FieldErrors;
  problem?: PlatformProblem;
  /** Tells a form a new outcome arrived, even one identical to the last. */
  at: number;
}

export type ActionState<Success = null, Failure = null> =
  { status: "idle" } | (Answered & { status: "success"; data: Success }) | (Answered & { status: "error"; data: Failure | null });

/** What an action called directly, not through a form, answers. */
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

export const firstError = (errors: FieldErrors, path: string): string | undefined => errors[path]?.[0];
