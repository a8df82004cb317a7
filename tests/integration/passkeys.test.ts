import { createHash, createPublicKey, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import type { KeyObject } from "node:crypto";
import type pg from "pg";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL, isoCBOR, isoUint8Array } from "@simplewebauthn/server/helpers";

type CBORType = Parameters<typeof isoCBOR.encode>[0];
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type * as Challenges from "@/lib/auth/passkey-challenges.server";
import type * as Credentials from "@/lib/auth/passkey-credentials.server";
import type * as SignIn from "@/lib/auth/passkeys.server";
import type * as AccountPasskeys from "@/features/people/passkeys.server";
import type * as People from "@/lib/people/people.server";
import type * as Joining from "@/lib/people/invitations.server";
import type * as Invitations from "@/features/people/invitations.server";
import type * as Team from "@/features/people/team.server";
import { connect, useTestDatabase } from "../support/database";

// Passkeys end to end on the server: challenges, a new person joining through an invitation with
// their first passkey, signing in with it, and another passkey for a signed-in person. A small
// software authenticator (ES256, "none" attestation) answers as a browser would. The flows are
// called with the sealed challenge (what the cookie holds); the first test goes through the options
// route, the last ones through the cookie wrappers.
// tests/e2e/passkeys.spec.ts walks the same through Chromium's virtual authenticator.

// acceptInvitation as it is, but replaceable for one call: to use the link first, as someone else
// opening it at the same moment would.
vi.mock("@/lib/people/invitations.server", async (importOriginal) => {
  const real = await importOriginal<typeof Joining>();
  return { ...real, acceptInvitation: vi.fn(real.acceptInvitation) };
});

// next/headers' cookies() exists only within a request: a jar of this test's own stands in for the
// browser's, so the wrappers the routes and Auth.js call are tested as they are.
const browserCookies = vi.hoisted(
  () => new Map<string, { value: string; httpOnly?: boolean; sameSite?: string; path?: string; maxAge?: number }>(),
);
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (browserCookies.has(name) ? { name, value: browserCookies.get(name)!.value } : undefined),
    set: ({ name, ...cookie }: { name: string; value: string; maxAge?: number }) => {
      if (cookie.maxAge === 0) browserCookies.delete(name);
      else browserCookies.set(name, cookie);
    },
  }),
}));

// getTranslations, too, needs a request: the route's words come from the English catalogue.
vi.mock("next-intl/server", async () => {
  const { createTranslator } = await import("next-intl");
  const { catalogues } = await import("@/messages");
  return {
    getTranslations: async (namespace: "shell") => createTranslator({ locale: "en", messages: catalogues.en, namespace }),
  };
});

let sql: pg.Client;
// Challenges, credentials, signing in and the account page's passkeys: one handle, as the tests read them.
let passkeys: typeof Challenges & typeof Credentials & typeof SignIn & typeof AccountPasskeys;
// The person, joining, the team and its invitations: one handle, as the tests read them.
let people: typeof People & typeof Joining & typeof Invitations & typeof Team;
let shopId: string;

beforeAll(async () => {
  const url = await useTestDatabase();
  sql = await connect(url);
  passkeys = {
    ...(await import("@/lib/auth/passkey-challenges.server")),
    ...(await import("@/lib/auth/passkey-credentials.server")),
    ...(await import("@/lib/auth/passkeys.server")),
    ...(await import("@/features/people/passkeys.server")),
  };
  people = {
    ...(await import("@/lib/people/people.server")),
    ...(await import("@/lib/people/invitations.server")),
    ...(await import("@/features/people/invitations.server")),
    ...(await import("@/features/people/team.server")),
  };
  shopId = `shop_${randomBytes(4).toString("hex")}`;
  await sql.query(`INSERT INTO "Seller" ("id", "email", "name", "updatedAt") VALUES ($1, $2, 'Loja Demo', now())`, [
    shopId,
    `${shopId}@example.com`,
  ]);
}, 60_000);

afterAll(async () => {
  await sql?.end();
});

const b64url = (bytes: Uint8Array | string) =>
  isoBase64URL.fromBuffer(typeof bytes === "string" ? isoUint8Array.fromUTF8String(bytes) : new Uint8Array(bytes));
const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash("sha256").update(data).digest());
const uint32 = (value: number) => new Uint8Array([(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255]);

interface StoredKey {
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

/** A platform authenticator in a few lines: discoverable ES256 credentials, user verified. */
class SoftwareAuthenticator {
  readonly credentials = new Map<string, StoredKey>();

  constructor(private readonly origin = passkeys.relyingParty().origin) {}

  /** A new credential, or with `again` the same credential once more (as an authenticator that ignored excludeCredentials). */
  register(options: PublicKeyCredentialCreationOptionsJSON, again?: string): RegistrationResponseJSON {
    const existing = again ? this.credentials.get(again) : undefined;
    const { privateKey, publicKey } = existing
      ? { privateKey: existing.privateKey, publicKey: createPublicKey(existing.privateKey) }
      : generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const cosePublicKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, isoBase64URL.toBuffer(jwk.x!)],
        [-3, isoBase64URL.toBuffer(jwk.y!)],
      ]),
    );
    const credentialId = again ? isoBase64URL.toBuffer(again) : new Uint8Array(randomBytes(16));
    const id = b64url(credentialId);
    const counter = 1;
    const authData = isoUint8Array.concat([
      sha256(options.rp.id!),
      new Uint8Array([0x45]), // user present, user verified, attested credential data
      uint32(counter),
      new Uint8Array(16), // AAGUID
      new Uint8Array([0, credentialId.length]),
      credentialId,
      cosePublicKey,
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, CBORType>([
        ["fmt", "none"],
        ["attStmt", new Map<string, CBORType>()],
        ["authData", authData],
      ]),
    );
    this.credentials.set(id, { privateKey, userHandle: options.user.id, counter });
    const clientDataJSON = JSON.stringify({
      type: "webauthn.create",
      challenge: options.challenge,
      origin: this.origin,
      crossOrigin: false,
    });
    return {
      id,
      rawId: id,
      type: "public-key",
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ["internal"] },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  /** Signs the challenge with `id` (the first credential by default), its counter one higher. */
  authenticate(options: PublicKeyCredentialRequestOptionsJSON, id = [...this.credentials.keys()][0]!): AuthenticationResponseJSON {
    const key = this.credentials.get(id)!;
    key.counter += 1;
    const authData = isoUint8Array.concat([sha256(options.rpId!), new Uint8Array([0x05]), uint32(key.counter)]);
    const clientDataJSON = JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin: this.origin, crossOrigin: false });
    const signature = sign("sha256", isoUint8Array.concat([authData, sha256(clientDataJSON)]), key.privateKey);
    return {
      id,
      rawId: id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(new Uint8Array(signature)),
        userHandle: key.userHandle,
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }
}

/** What the options route hands a browser for a new person joining through `invite`, and the sealed challenge (the cookie). */
async function registrationFor(name: string, invite: string, now?: Date) {
  const personId = passkeys.newPersonId();
  const { sealed, challenge } = passkeys.issueChallenge({ purpose: "register", personId, invite }, now);
  const options = await passkeys.buildRegistrationOptions({ challenge, personId, name, rpName: "Painel do Vendedor" });
  return { personId, sealed, options };
}

async function signInChallenge(now?: Date) {
  const { sealed, challenge } = passkeys.issueChallenge({ purpose: "authenticate" }, now);
  return { sealed, options: await passkeys.buildAuthenticationOptions(challenge) };
}

async function addChallenge(personId: string, { exclude, now }: { exclude?: { id: string; transports: string }[]; now?: Date } = {}) {
  const { sealed, challenge } = passkeys.issueChallenge({ purpose: "add", personId }, now);
  return { sealed, options: await passkeys.buildRegistrationOptions({ challenge, personId, name: "x", rpName: "x", exclude }) };
}

/** A new person joins with a fresh authenticator; answers who signed in (or null) and the authenticator. */
async function joinWith(invite: string, name: string, now?: Date) {
  const authenticator = new SoftwareAuthenticator();
  const { personId, sealed, options } = await registrationFor(name, invite, now);
  const response = authenticator.register(options);
  const signedIn = await passkeys.signInWithPasskey(
    sealed,
    { response: JSON.stringify(response), invite, name },
    { userAgent: "Mozilla/5.0 (Linux; Android 14) Chrome/131.0.0.0 Mobile Safari/537.36", now },
  );
  return { personId, signedIn, authenticator, credentialId: response.id };
}

async function signInWith(authenticator: SoftwareAuthenticator, id?: string) {
  const { sealed, options } = await signInChallenge();
  return passkeys.signInWithPasskey(sealed, { response: JSON.stringify(authenticator.authenticate(options, id)) });
}

const signInAnswer = (authenticator: SoftwareAuthenticator, options: PublicKeyCredentialRequestOptionsJSON) => ({
  response: JSON.stringify(authenticator.authenticate(options)),
});

/** What a sealed challenge says: it is signed, not hidden. */
const contentOf = (sealed: string): Record<string, unknown> => JSON.parse(Buffer.from(sealed.split(".")[0]!, "base64url").toString());

/** The sealed value with its content changed and its seal kept, as someone editing their cookie would. */
function tampered(sealed: string, changes: Record<string, unknown>): string {
  const content = { ...contentOf(sealed), ...changes };
  return `${Buffer.from(JSON.stringify(content)).toString("base64url")}.${sealed.split(".")[1]}`;
}

const count = async (table: string, where: string, value: unknown) =>
  Number((await sql.query<{ n: string }>(`SELECT count(*) AS n FROM "${table}" WHERE ${where} = $1`, [value])).rows[0]!.n);
const challengeRows = async () => Number((await sql.query<{ n: string }>(`SELECT count(*) AS n FROM "PasskeyChallenge"`)).rows[0]!.n);

const invitation = (role: "owner" | "manager" | "operations" | "viewer" = "viewer") =>
  people.createInvitation(shopId, role, "owner-person");

/** Someone who joined, with a passkey that signs them in. */
async function member(name: string) {
  const joined = await joinWith((await invitation()).token, name);
  expect(joined.signedIn).toEqual({ id: joined.personId });
  return joined;
}

describe("passkey challenges", () => {
  it("are handed out without writing: 200 sign-in options and 50 to join through an open link write no row", async () => {
    const { POST } = await import("@/app/api/passkeys/options/route");
    const optionsRequest = (body: unknown) =>
      new Request("http://localhost/api/passkeys/options", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const { token } = await invitation();
    const before = await challengeRows();
    for (let call = 0; call < 200; call += 1) {
      const response = await POST(optionsRequest({ purpose: "authenticate" }));
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ challenge: expect.any(String), allowCredentials: [] });
    }
    for (let call = 0; call < 50; call += 1) {
      expect((await POST(optionsRequest({ purpose: "register", invite: token, name: "Ninguém" }))).status).toBe(200);
    }
    expect(await challengeRows()).toBe(before);
    // The last options still work: their challenge is in this browser's cookie.
    expect(browserCookies.get(passkeys.PASSKEY_CHALLENGE_COOKIE)).toMatchObject({ httpOnly: true, sameSite: "strict", maxAge: 300 });
  });

  it("are used once: the same challenge answered again is refused, even signed afresh", async () => {
    const { personId, authenticator } = await member("Olga Pires");
    const { sealed, options } = await signInChallenge();
    expect(await passkeys.signInWithPasskey(sealed, signInAnswer(authenticator, options))).toEqual({ id: personId });
    // Its counter is higher, so the record of the challenge's use is what refuses it.
    expect(await passkeys.signInWithPasskey(sealed, signInAnswer(authenticator, options))).toBeNull();
  });

  it("are used once with a synced passkey too, whose counter stays at 0: a replayed answer, and one racing another", async () => {
    const { personId, authenticator, credentialId } = await member("Rui Campos");
    await sql.query(`UPDATE "Passkey" SET "counter" = 0 WHERE "id" = $1`, [credentialId]);
    const key = authenticator.credentials.get(credentialId)!;
    const synced = (options: PublicKeyCredentialRequestOptionsJSON) => {
      key.counter = -1; // answers with 0
      return signInAnswer(authenticator, options);
    };

    const first = await signInChallenge();
    const answer = synced(first.options);
    expect(await passkeys.signInWithPasskey(first.sealed, answer)).toEqual({ id: personId });
    expect(await passkeys.signInWithPasskey(first.sealed, answer)).toBeNull();

    const second = await signInChallenge();
    const racing = await Promise.all(
      [synced(second.options), synced(second.options)].map((one) => passkeys.signInWithPasskey(second.sealed, one)),
    );
    expect(racing.filter((signedIn) => signedIn !== null)).toEqual([{ id: personId }]);
  });

  it("taken by one of two answers racing to add a passkey with it", async () => {
    const { personId } = await member("Paulo Reis");
    const { sealed, options } = await addChallenge(personId);
    const outcomes = await Promise.all(
      [new SoftwareAuthenticator(), new SoftwareAuthenticator()].map((key) =>
        passkeys.addPasskeyWithChallenge(sealed, personId, key.register(options)),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([{ ok: false, error: "challenge" }]);
    expect(await passkeys.listPasskeys(personId)).toHaveLength(2);
  });

  it("expire after five minutes", async () => {
    const { personId, authenticator } = await member("Sara Lopes");
    const now = new Date();
    const { sealed, options } = await signInChallenge(now);
    expect(
      await passkeys.signInWithPasskey(sealed, signInAnswer(authenticator, options), { now: new Date(now.getTime() + 5 * 60_000) }),
    ).toBeNull();
    const inTime = new Date(now.getTime() + 5 * 60_000 - 1_000);
    expect(await passkeys.signInWithPasskey(sealed, signInAnswer(authenticator, options), { now: inTime })).toEqual({ id: personId });
  });

  it("answer only the purpose they were issued for", async () => {
    const { personId, authenticator } = await member("Tiago Moura");
    // A challenge to add a passkey signs no one in.
    const add = await addChallenge(personId);
    const addAsSignIn = await passkeys.buildAuthenticationOptions(add.options.challenge);
    expect(await passkeys.signInWithPasskey(add.sealed, signInAnswer(authenticator, addAsSignIn))).toBeNull();
    // One to join signs no one in, and adds no passkey to the person it names.
    const { token } = await invitation();
    const join = await registrationFor("Tiago Moura", token);
    const joinAsSignIn = await passkeys.buildAuthenticationOptions(join.options.challenge);
    expect(await passkeys.signInWithPasskey(join.sealed, signInAnswer(authenticator, joinAsSignIn))).toBeNull();
    const joinAsAdd = await passkeys.addPasskeyWithChallenge(
      join.sealed,
      join.personId,
      new SoftwareAuthenticator().register(join.options),
    );
    expect(joinAsAdd).toEqual({ ok: false, error: "challenge" });
    // A sign-in one adds no passkey.
    const signIn = await signInChallenge();
    const signInAsAdd = await passkeys.buildRegistrationOptions({ challenge: signIn.options.challenge, personId, name: "x", rpName: "x" });
    expect(await passkeys.addPasskeyWithChallenge(signIn.sealed, personId, new SoftwareAuthenticator().register(signInAsAdd))).toEqual({
      ok: false,
      error: "challenge",
    });
    expect(await passkeys.listPasskeys(personId)).toHaveLength(1);
  });

  it("refuse a cookie whose challenge, purpose, person or invitation was changed, or whose seal is not this server's", async () => {
    const { personId, authenticator } = await member("Úrsula Vaz");
    const mine = await signInChallenge();
    const other = await signInChallenge();
    const answer = signInAnswer(authenticator, other.options);
    const rechallenged = tampered(mine.sealed, { challenge: other.options.challenge });
    expect(await passkeys.signInWithPasskey(rechallenged, answer)).toBeNull();
    expect(await passkeys.signInWithPasskey(`${other.sealed.split(".")[0]}.${"A".repeat(43)}`, answer)).toBeNull();
    expect(await passkeys.signInWithPasskey(`${other.sealed}A`, answer)).toBeNull();
    // A challenge id of before (a row's) is refused like any unknown cookie.
    expect(await passkeys.signInWithPasskey(randomBytes(24).toString("base64url"), answer)).toBeNull();
    // Re-encoded unchanged, the same answer is accepted: only the changes were refused.
    const unchanged = tampered(other.sealed, {});
    expect(unchanged).toBe(other.sealed);
    expect(await passkeys.signInWithPasskey(unchanged, answer)).toEqual({ id: personId });

    // Anyone's sign-in challenge made into one to add a passkey to this person.
    const signIn = await signInChallenge();
    const asAdd = tampered(signIn.sealed, { purpose: "add", personId });
    const options = await passkeys.buildRegistrationOptions({ challenge: signIn.options.challenge, personId, name: "x", rpName: "x" });
    expect(await passkeys.addPasskeyWithChallenge(asAdd, personId, new SoftwareAuthenticator().register(options))).toEqual({
      ok: false,
      error: "challenge",
    });
    // One to add a passkey to someone else, made into this person's.
    const theirs = await addChallenge("someone-else");
    const retargeted = tampered(theirs.sealed, { personId });
    expect(await passkeys.addPasskeyWithChallenge(retargeted, personId, new SoftwareAuthenticator().register(theirs.options))).toEqual({
      ok: false,
      error: "challenge",
    });
    expect(await passkeys.listPasskeys(personId)).toHaveLength(1);

    // One to join through a closed link made into one for an open link.
    const closed = await invitation();
    const open = await invitation();
    await people.revokeInvitation(shopId, closed.id);
    const join = await registrationFor("Vítor Assis", closed.token);
    const forOpen = (await registrationFor("x", open.token)).sealed;
    const relinked = tampered(join.sealed, { invitation: contentOf(forOpen).invitation });
    const response = JSON.stringify(new SoftwareAuthenticator().register(join.options));
    expect(await passkeys.signInWithPasskey(relinked, { response, invite: open.token, name: "Vítor Assis" })).toBeNull();
    expect(await count("Person", `"id"`, join.personId)).toBe(0);
  });

  it("are recorded used, each flow's, until a minute after they expire, then cleared as later ones are used", async () => {
    const now = new Date();
    const { personId, signedIn, authenticator } = await joinWith((await invitation()).token, "Wanda Reis", now);
    expect(signedIn).toEqual({ id: personId });
    const { sealed, options } = await signInChallenge(now);
    expect(await passkeys.signInWithPasskey(sealed, signInAnswer(authenticator, options), { now })).toEqual({ id: personId });
    const add = await addChallenge(personId, { now });
    expect(
      await passkeys.addPasskeyWithChallenge(add.sealed, personId, new SoftwareAuthenticator().register(add.options), { now }),
    ).toMatchObject({
      ok: true,
    });
    const expiresAt = new Date(now.getTime() + 5 * 60_000);
    const used = () =>
      sql.query(
        `SELECT "id", "purpose", "personId", "expiresAt" FROM "PasskeyChallenge" WHERE "personId" = $1 OR "challenge" = $2 ORDER BY "purpose"`,
        [personId, options.challenge],
      );
    expect((await used()).rows).toEqual([
      { id: expect.any(String), purpose: "add", personId, expiresAt },
      { id: createHash("sha256").update(options.challenge).digest("base64url"), purpose: "authenticate", personId: null, expiresAt },
      { id: expect.any(String), purpose: "register", personId, expiresAt },
    ]);

    // Kept a minute past their expiry (an instance whose clock is behind may still take them for open)…
    const soon = new Date(expiresAt.getTime() + 59_000);
    const next = await signInChallenge(soon);
    expect(await passkeys.signInWithPasskey(next.sealed, signInAnswer(authenticator, next.options), { now: soon })).not.toBeNull();
    expect((await used()).rows.map((row: { purpose: string }) => row.purpose)).toEqual(["add", "authenticate", "register"]);
    // …then cleared when another answer is recorded.
    const later = new Date(expiresAt.getTime() + 60_001);
    const last = await signInChallenge(later);
    expect(await passkeys.signInWithPasskey(last.sealed, signInAnswer(authenticator, last.options), { now: later })).not.toBeNull();
    expect((await used()).rows).toEqual([]);
    expect(await count("PasskeyChallenge", `"challenge"`, last.options.challenge)).toBe(1);
  });
});

describe("joining through an invitation with a new passkey", () => {
  it("creates the person and their passkey, joins the shop with the invitation's role, and records it", async () => {
    const { token, id: invitationId } = await invitation("manager");
    const { personId, signedIn, credentialId } = await joinWith(token, "Ana Souza");
    expect(signedIn).toEqual({ id: personId });

    const person = await sql.query(`SELECT "name", "marketplaceEmail", "lastShopId" FROM "Person" WHERE "id" = $1`, [personId]);
    expect(person.rows).toEqual([{ name: "Ana Souza", marketplaceEmail: null, lastShopId: shopId }]);
    const membership = await sql.query(`SELECT "role" FROM "Membership" WHERE "personId" = $1 AND "sellerId" = $2`, [personId, shopId]);
    expect(membership.rows).toEqual([{ role: "manager" }]);
    const passkey = await sql.query(`SELECT "personId", "counter", "transports", "name", "lastUsedAt" FROM "Passkey" WHERE "id" = $1`, [
      credentialId,
    ]);
    expect(passkey.rows).toEqual([{ personId, counter: "1", transports: "internal", name: "Chrome · Android", lastUsedAt: null }]);
    const used = await sql.query(`SELECT "acceptedById" FROM "Invitation" WHERE "id" = $1`, [invitationId]);
    expect(used.rows).toEqual([{ acceptedById: personId }]);
    const audit = await sql.query(
      `SELECT "personId", "personName", "action", "subject", "after" FROM "AuditEntry" WHERE "sellerId" = $1 AND "personId" = $2`,
      [shopId, personId],
    );
    expect(audit.rows).toEqual([
      { personId, personName: "Ana Souza", action: "member.join", subject: "Ana Souza", after: { role: "manager" } },
    ]);
  });

  it.each(["expired", "used", "revoked"] as const)("is refused through an %s invitation, and creates no person", async (state) => {
    const { token, id } = await invitation();
    if (state === "expired") await sql.query(`UPDATE "Invitation" SET "expiresAt" = now() - interval '1 minute' WHERE "id" = $1`, [id]);
    if (state === "revoked") await people.revokeInvitation(shopId, id);
    if (state === "used") expect((await joinWith(token, "Primeira Pessoa")).signedIn).not.toBeNull();

    const { personId, signedIn, credentialId } = await joinWith(token, "Segunda Pessoa");
    expect(signedIn).toBeNull();
    expect(await count("Person", `"id"`, personId)).toBe(0);
    expect(await count("Passkey", `"id"`, credentialId)).toBe(0);
    expect(await count("Person", `"name"`, "Segunda Pessoa")).toBe(0);
  });

  it("is undone when someone else used the link while the passkey was being checked", async () => {
    const { token } = await invitation();
    const rival = `c${randomBytes(12).toString("hex")}`;
    await sql.query(`INSERT INTO "Person" ("id", "name") VALUES ($1, 'Rival')`, [rival]);
    const accept = vi.mocked(people.acceptInvitation);
    const real = accept.getMockImplementation()!;
    accept.mockImplementationOnce(async (token_, personId, now) => {
      await real(token_, rival, now);
      return real(token_, personId, now);
    });

    const { personId, signedIn, credentialId } = await joinWith(token, "Atrasada");
    expect(signedIn).toBeNull();
    expect(await count("Person", `"id"`, personId)).toBe(0);
    expect(await count("Passkey", `"id"`, credentialId)).toBe(0);
    expect(await count("Membership", `"personId"`, rival)).toBe(1);
  });

  it("is refused for an unknown invitation, for a sign-in challenge, for another link's, and for an answer to another challenge", async () => {
    const unknown = await joinWith(randomBytes(24).toString("base64url"), "Ninguém");
    expect(unknown.signedIn).toBeNull();

    const { token } = await invitation();
    const authenticator = new SoftwareAuthenticator();
    // Options for one challenge, the answer sent with another's cookie.
    const first = await registrationFor("Carla", token);
    const second = await registrationFor("Carla", token);
    const answer = JSON.stringify(authenticator.register(first.options));
    expect(await passkeys.signInWithPasskey(second.sealed, { response: answer, invite: token, name: "Carla" })).toBeNull();
    // A sign-in challenge cannot create a person.
    const signIn = await signInChallenge();
    expect(await passkeys.signInWithPasskey(signIn.sealed, { response: answer, invite: token, name: "Carla" })).toBeNull();
    // Nor one handed out for another link, open as it is.
    const another = await invitation();
    expect(await passkeys.signInWithPasskey(first.sealed, { response: answer, invite: another.token, name: "Carla" })).toBeNull();
    expect(await count("Person", `"name"`, "Carla")).toBe(0);
    // Both invitations are still open for the right answers.
    expect((await joinWith(token, "Carla")).signedIn).not.toBeNull();
    expect((await joinWith(another.token, "Carla")).signedIn).not.toBeNull();
  });
});

describe("signing in with a passkey", () => {
  it("signs the person in, moves the counter and records when it was used", async () => {
    const { token } = await invitation();
    const { personId, authenticator, credentialId } = await joinWith(token, "Bruno Lima");
    expect(await signInWith(authenticator)).toEqual({ id: personId });
    expect(await signInWith(authenticator)).toEqual({ id: personId });
    const { rows } = await sql.query<{ counter: string; lastUsedAt: Date | null }>(
      `SELECT "counter", "lastUsedAt" FROM "Passkey" WHERE "id" = $1`,
      [credentialId],
    );
    expect(rows[0]!.counter).toBe("3");
    expect(rows[0]!.lastUsedAt).not.toBeNull();
  });

  it("refuses a credential it does not know", async () => {
    const stranger = new SoftwareAuthenticator();
    const { options } = await registrationFor("Estranho", randomBytes(24).toString("base64url"));
    stranger.register(options); // never sent to the server
    expect(await signInWith(stranger)).toBeNull();
  });

  it("refuses an answer whose counter went back (a cloned authenticator), and a replayed answer", async () => {
    const { token } = await invitation();
    const { authenticator, credentialId } = await joinWith(token, "Clara Dias");
    const key = authenticator.credentials.get(credentialId)!;
    expect(await signInWith(authenticator)).not.toBeNull(); // counter 2
    key.counter = 0; // the clone answers with 1
    expect(await signInWith(authenticator)).toBeNull();

    key.counter = 10;
    const { sealed, options } = await signInChallenge();
    const answer = JSON.stringify(authenticator.authenticate(options));
    expect(await passkeys.signInWithPasskey(sealed, { response: answer })).not.toBeNull();
    expect(await passkeys.signInWithPasskey(sealed, { response: answer })).toBeNull();
    const again = await signInChallenge();
    expect(await passkeys.signInWithPasskey(again.sealed, { response: answer })).toBeNull();
  });

  it("refuses an answer for another site, and malformed credentials", async () => {
    const { token } = await invitation();
    const { authenticator } = await joinWith(token, "Davi Rocha");
    const phishing = new SoftwareAuthenticator("https://painel-do-vendedor.example");
    phishing.credentials.set(...[...authenticator.credentials.entries()][0]!);
    expect(await signInWith(phishing)).toBeNull();

    const { sealed } = await signInChallenge();
    expect(await passkeys.signInWithPasskey(sealed, { response: "not json" })).toBeNull();
    expect(await passkeys.signInWithPasskey(sealed, { response: "{}" })).toBeNull();
    expect(await passkeys.signInWithPasskey(sealed, {})).toBeNull();
    expect(await passkeys.signInWithPasskey(sealed, { response: "{}", invite: token })).toBeNull();
  });
});

describe("a signed-in person's passkeys", () => {
  async function addWith(authenticator: SoftwareAuthenticator, person: { id: string; name: string }, challengeFor = person.id) {
    const challenge = passkeys.issueChallenge({ purpose: "add", personId: challengeFor });
    const options = await passkeys.buildRegistrationOptions({
      challenge: challenge.challenge,
      personId: person.id,
      name: person.name,
      rpName: "Painel do Vendedor",
    });
    const response = authenticator.register(options);
    return {
      response,
      outcome: await passkeys.addPasskeyWithChallenge(challenge.sealed, person.id, response, {
        userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
      }),
    };
  }

  it("adds another passkey that signs the same person in, listed with its name", async () => {
    const { token } = await invitation();
    const { personId } = await joinWith(token, "Eva Nunes");
    const laptop = new SoftwareAuthenticator();
    const { outcome } = await addWith(laptop, { id: personId, name: "Eva Nunes" });
    expect(outcome).toMatchObject({ ok: true, passkey: { name: "Safari · macOS", lastUsedAt: null } });
    expect(await signInWith(laptop)).toEqual({ id: personId });
    expect((await passkeys.listPasskeys(personId)).map((passkey) => passkey.name)).toEqual(["Chrome · Android", "Safari · macOS"]);
  });

  it("refuses a challenge issued to someone else, and the same credential twice", async () => {
    const { token } = await invitation();
    const { personId } = await joinWith(token, "Fábio Reis");
    const key = new SoftwareAuthenticator();
    expect((await addWith(key, { id: personId, name: "Fábio Reis" }, "someone-else")).outcome).toEqual({ ok: false, error: "challenge" });

    const { response, outcome } = await addWith(key, { id: personId, name: "Fábio Reis" });
    expect(outcome.ok).toBe(true);
    // The options exclude it; an authenticator that registers it again anyway is refused.
    const { sealed, options } = await addChallenge(personId, { exclude: [{ id: response.id, transports: "internal" }] });
    expect(options.excludeCredentials?.map((credential) => credential.id)).toEqual([response.id]);
    expect(await passkeys.addPasskeyWithChallenge(sealed, personId, key.register(options, response.id))).toEqual({
      ok: false,
      error: "duplicate",
    });
  });

  it("removes a person's own passkey only, and never their last way in", async () => {
    const { token } = await invitation();
    const { personId, credentialId } = await joinWith(token, "Gil Torres");
    const other = await joinWith((await invitation()).token, "Helena Prado");

    expect(await passkeys.removePasskey(other.personId, credentialId)).toBe("not-found");
    expect(await passkeys.removePasskey(personId, credentialId)).toBe("last-way-in");

    const { outcome } = await addWith(new SoftwareAuthenticator(), { id: personId, name: "Gil Torres" });
    expect(await passkeys.removePasskey(personId, credentialId)).toBe("removed");
    expect((await passkeys.listPasskeys(personId)).map((passkey) => passkey.id)).toEqual([outcome.ok ? outcome.passkey.id : "?"]);

    // Someone who also signs in with a marketplace account may remove every passkey.
    await sql.query(`UPDATE "Person" SET "marketplaceEmail" = 'gil@example.com' WHERE "id" = $1`, [personId]);
    expect(await passkeys.removePasskey(personId, outcome.ok ? outcome.passkey.id : "?")).toBe("removed");
  });
});

describe("through this browser's challenge cookie (what the routes and Auth.js call)", () => {
  const userAgent = new Request("http://localhost/", {
    headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36" },
  });

  it("joins, signs in and adds a passkey, each challenge used once", async () => {
    const { token } = await invitation("operations");
    const authenticator = new SoftwareAuthenticator();

    const registration = await passkeys.invitationRegistrationOptions({ invite: token, name: "Irene Melo", rpName: "Painel do Vendedor" });
    expect(registration).not.toBeNull();
    expect(browserCookies.get(passkeys.PASSKEY_CHALLENGE_COOKIE)).toMatchObject({
      httpOnly: true,
      sameSite: "strict",
      path: "/",
      maxAge: 300,
    });
    expect(registration!.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "preferred" });
    const joined = await passkeys.verifyPasskeySignIn(
      { response: JSON.stringify(authenticator.register(registration!)), invite: token, name: "Irene Melo" },
      userAgent,
    );
    expect(joined).not.toBeNull();
    expect(browserCookies.has(passkeys.PASSKEY_CHALLENGE_COOKIE)).toBe(false);
    expect(Buffer.from(registration!.user.id, "base64url").toString()).toBe(joined!.id);

    const signIn = await passkeys.signInOptions();
    expect(signIn).toMatchObject({ allowCredentials: [], userVerification: "preferred" });
    const cookie = browserCookies.get(passkeys.PASSKEY_CHALLENGE_COOKIE)!;
    const answer = JSON.stringify(authenticator.authenticate(signIn));
    expect(await passkeys.verifyPasskeySignIn({ response: answer }, userAgent)).toEqual(joined);
    // The cookie went with the first try; sent again by hand, with an answer signed afresh, it is refused.
    expect(await passkeys.verifyPasskeySignIn({ response: answer }, userAgent)).toBeNull();
    browserCookies.set(passkeys.PASSKEY_CHALLENGE_COOKIE, cookie);
    expect(await passkeys.verifyPasskeySignIn({ response: JSON.stringify(authenticator.authenticate(signIn)) }, userAgent)).toBeNull();

    const more = await passkeys.additionalPasskeyOptions({ id: joined!.id, name: "Irene Melo" }, "Painel do Vendedor");
    expect(more.excludeCredentials?.map((credential) => credential.id)).toEqual([...authenticator.credentials.keys()]);
    const added = await passkeys.addPasskey(joined!.id, new SoftwareAuthenticator().register(more), {
      userAgent: userAgent.headers.get("user-agent"),
    });
    expect(added).toMatchObject({ ok: true, passkey: { name: "Chrome · Linux" } });
    expect(await passkeys.addPasskey(joined!.id, new SoftwareAuthenticator().register(more))).toEqual({ ok: false, error: "challenge" });
  });

  it("hands out no registration options for a link that no longer works", async () => {
    const { token, id } = await invitation();
    await people.revokeInvitation(shopId, id);
    browserCookies.clear();
    expect(await passkeys.invitationRegistrationOptions({ invite: token, name: "Jonas", rpName: "x" })).toBeNull();
    expect(browserCookies.size).toBe(0);
  });
});

describe("passkey names", () => {
  it.each([
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      "Edge · Windows",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      "Safari · iOS",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox · Linux"],
    ["curl/8.5.0", ""],
    [null, ""],
  ])("%s → %s", (userAgent, name) => {
    expect(passkeys.passkeyNameFromUserAgent(userAgent)).toBe(name);
  });
});
