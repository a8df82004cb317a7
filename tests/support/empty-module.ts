// Stands in for `server-only` under Vitest, where server modules are imported directly.
export {};
