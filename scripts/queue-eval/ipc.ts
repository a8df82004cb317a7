// Request/answer over Node's IPC channel between the coordinator and its children (receiver,
// workers), plus one-way events from a child. A child is its own process so that a worker can be
// SIGKILLed, and so each side's lib modules bind to that side's database when they load.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";

type Request = { id: number; op: string; args: unknown };
type Answer = { id: number; result?: unknown; error?: string };
export type ChildEvent = { event: string; [key: string]: unknown };

/** In a child: answers the coordinator's requests with `handlers`. */
export function serve(handlers: Record<string, (args: never) => Promise<unknown>>) {
  process.on("message", (message: Request) => {
    const handler = handlers[message.op] as ((args: unknown) => Promise<unknown>) | undefined;
    if (!handler) {
      process.send?.({ id: message.id, error: `unknown op ${message.op}` } satisfies Answer);
      return;
    }
    handler(message.args).then(
      (result) => process.send?.({ id: message.id, result } satisfies Answer),
      (error: unknown) =>
        process.send?.({ id: message.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies Answer),
    );
  });
  // The coordinator gone (killed), nothing is left to serve.
  process.on("disconnect", () => process.exit(0));
}

/** In a child: tells the coordinator something happened. */
export function emit(event: ChildEvent) {
  process.send?.(event);
}

/** Children still running when the coordinator exits are killed with it. */
const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** In the coordinator: one child and its channel. */
export class Child {
  private readonly process: ChildProcess;
  private next = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly listeners: ((event: ChildEvent) => void)[] = [];
  readonly exited: Promise<number | null>;

  constructor(
    readonly name: string,
    file: string,
    env: NodeJS.ProcessEnv,
  ) {
    // The react-server condition makes `server-only` importable, as scripts/worker.ts does.
    this.process = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", file], {
      env,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    this.process.on("message", (message: Answer | ChildEvent) => {
      if ("event" in message) {
        for (const listener of this.listeners) listener(message);
        return;
      }
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.error !== undefined) waiting.reject(new Error(`${name}: ${message.error}`));
      else waiting.resolve(message.result);
    });
    this.exited = new Promise((resolve) => this.process.on("exit", (code) => resolve(code)));
    void this.exited.then(() => {
      for (const waiting of this.pending.values()) waiting.reject(new Error(`${name} exited`));
      this.pending.clear();
    });
    running.add(this.process);
    this.process.on("exit", () => running.delete(this.process));
  }

  get pid(): number {
    return this.process.pid!;
  }

  call<T>(op: string, args: unknown = {}): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.process.send({ id, op, args } satisfies Request);
    });
  }

  on(listener: (event: ChildEvent) => void) {
    this.listeners.push(listener);
  }

  /** Resolves with the first event named `name` (e.g. "ready"). */
  waitFor(name: string, timeoutMs = 60_000): Promise<ChildEvent> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name} sent no "${name}" in ${timeoutMs / 1000} s`)), timeoutMs);
      this.on((event) => {
        if (event.event !== name) return;
        clearTimeout(timer);
        resolve(event);
      });
      void this.exited.then(() => reject(new Error(`${this.name} exited before "${name}"`)));
    });
  }

  kill(signal: NodeJS.Signals) {
    this.process.kill(signal);
  }
}
