// Deterministic randomness for the seed (the same SANDBOX_SEED always yields the same data) and
// ObjectId generation.
import { randomBytes } from "node:crypto";

/** mulberry32: tiny, fast, good enough for fake data. */
export function createPrng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class SeededRandom {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = createPrng(seed);
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
  digits(count: number): string {
    let out = "";
    for (let i = 0; i < count; i++) out += Math.floor(this.next() * 10);
    return out;
  }
  hex(count: number): string {
    let out = "";
    for (let i = 0; i < count; i++) out += Math.floor(this.next() * 16).toString(16);
    return out;
  }
  /** Fisher–Yates, in place: every order equally likely. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j] as T, items[i] as T];
    }
    return items;
  }
}

/**
 * ObjectIds (spec: identifiers are ObjectId strings): 4 bytes of seconds, 5 bytes of
 * per-generator randomness, a 3-byte counter. A seeded generator yields the same ids every run.
 */
export function createObjectIdFactory(random?: SeededRandom): (timeMs: number) => string {
  const machine = random ? random.hex(10) : randomBytes(5).toString("hex");
  let counter = random ? random.int(0, 0xffff) : randomBytes(2).readUInt16BE(0);
  return (timeMs) => {
    counter = (counter + 1) % 0x1000000;
    const seconds = Math.max(0, Math.floor(timeMs / 1000)) % 0x100000000;
    return seconds.toString(16).padStart(8, "0") + machine + counter.toString(16).padStart(6, "0");
  };
}

/** Opaque credentials (authorization codes, access tokens): 256 bits, base64url. */
export function opaqueToken(): string {
  return randomBytes(32).toString("base64url");
}
