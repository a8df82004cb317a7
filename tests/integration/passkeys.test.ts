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
import type * as Passkeys from "@/lib/auth/passkeys.server";
import type * as People from "@/lib/data/people.server";
import { connect, useTestDatabase } from "../support/database";

// Passkeys end to end on the server: challenges, a new person joining through an invitation with
// their first passkey, signing in with it, and another passkey for a signed-in person. A small
// software authenticator (ES256, "none" attestation) answers as a browser would. The flows are
// called with the challenge's id; the last tests go through the cookie wrappers as well.
// tests/e2e/passkeys.spec.ts walks the same through Chromium's virtual authenticator.

// acceptInvitation as it is, but replaceable for one call: to use the link first, as someone else
// opening it at the same moment would.
vi.mock("@/lib/data/people.server", async (importOriginal) => {
  const real = await importOriginal<typeof People>();
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

let sql: pg.Client;
let passkeys: typeof Passkeys;
let people: typeof People;
let sellerId: string;

beforeAll(async () => {
  const url = await useTestDatabase();
  sql = await connect(url);
  passkeys = await import("@/lib/auth/passkeys.server");
  people = await import("@/lib/data/people.server");
  sellerId = `shop_${randomBytes(4).toString("hex")}`;
  await sql.query(`INSERT INTO "Seller" ("id", "email", "name", "updatedAt") VALUES ($1, $2, 'Loja Demo', now())`, [
    sellerId,
    `${sellerId}@example.com`,
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

/** What the options route hands a browser for a new person joining through `invite`, and the challenge's id (the cookie). */
async function registrationFor(name: string) {
  const personId = passkeys.newPersonId();
  const challenge = await passkeys.createChallenge("register", personId);
  const options = await passkeys.buildRegistrationOptions({ challenge: challenge.challenge, personId, name, rpName: "Painel do Vendedor" });
  return { personId, challengeId: challenge.id, options };
}

async function signInChallenge() {
  const challenge = await passkeys.createChallenge("authenticate");
  return { challengeId: challenge.id, options: await passkeys.buildAuthenticationOptions(challenge.challenge) };
}

/** A new person joins with a fresh authenticator; answers who signed in (or null) and the authenticator. */
async function joinWith(invite: string, name: string, now?: Date) {
  const authenticator = new SoftwareAuthenticator();
  const { personId, challengeId, options } = await registrationFor(name);
  const response = authenticator.register(options);
  const signedIn = await passkeys.signInWithPasskey(
    challengeId,
    { response: JSON.stringify(response), invite, name },
    { userAgent: "Mozilla/5.0 (Linux; Android 14) Chrome/131.0.0.0 Mobile Safari/537.36", now },
  );
  return { personId, signedIn, authenticator, credentialId: response.id };
}

async function signInWith(authenticator: SoftwareAuthenticator, id?: string) {
  const { challengeId, options } = await signInChallenge();
  return passkeys.signInWithPasskey(challengeId, { response: JSON.stringify(authenticator.authenticate(options, id)) });
}

const count = async (table: string, where: string, value: unknown) =>
  Number((await sql.query<{ n: string }>(`SELECT count(*) AS n FROM "${table}" WHERE ${where} = $1`, [value])).rows[0]!.n);

const invitation = (role: "owner" | "manager" | "operations" | "viewer" = "viewer") =>
  people.createInvitation(sellerId, role, "owner-person");

describe("passkey challenges", () => {
  it("are used once: a second answer to the same challenge finds nothing", async () => {
    const now = new Date();
    const { id } = await passkeys.createChallenge("authenticate", null, now);
    expect(await passkeys.consumeChallenge(id, "authenticate", new Date(now.getTime() + 60_000))).not.toBeNull();
    expect(await passkeys.consumeChallenge(id, "authenticate", new Date(now.getTime() + 60_000))).toBeNull();
  });

  it("expire after five minutes, and are used up by a late answer too", async () => {
    const now = new Date();
    const late = await passkeys.createChallenge("authenticate", null, now);
    expect(await passkeys.consumeChallenge(late.id, "authenticate", new Date(now.getTime() + 5 * 60_000 + 1))).toBeNull();
    expect(await count("PasskeyChallenge", `"id"`, late.id)).toBe(0);
    const inTime = await passkeys.createChallenge("authenticate", null, now);
    expect(await passkeys.consumeChallenge(inTime.id, "authenticate", new Date(now.getTime() + 5 * 60_000 - 1_000))).not.toBeNull();
  });

  it("answer only the purpose they were issued for, and are used up by another", async () => {
    const { id } = await passkeys.createChallenge("add", "someone");
    expect(await passkeys.consumeChallenge(id, "authenticate")).toBeNull();
    expect(await passkeys.consumeChallenge(id, "add")).toBeNull();
  });

  it("carry the future person's id through registration, and expired ones are cleared as new ones are issued", async () => {
    const now = new Date();
    const old = await passkeys.createChallenge("authenticate", null, new Date(now.getTime() - 10 * 60_000));
    const fresh = await passkeys.createChallenge("register", "c-future-person", now);
    expect(await count("PasskeyChallenge", `"id"`, old.id)).toBe(0);
    expect(await passkeys.consumeChallenge(fresh.id, "register", now)).toEqual({ challenge: fresh.challenge, personId: "c-future-person" });
  });
});

describe("joining through an invitation with a new passkey", () => {
  it("creates the person and their passkey, joins the shop with the invitation's role, and records it", async () => {
    const { token, id: invitationId } = await invitation("manager");
    const { personId, signedIn, credentialId } = await joinWith(token, "Ana Souza");
    expect(signedIn).toEqual({ id: personId });

    const person = await sql.query(`SELECT "name", "marketplaceEmail", "lastShopId" FROM "Person" WHERE "id" = $1`, [personId]);
    expect(person.rows).toEqual([{ name: "Ana Souza", marketplaceEmail: null, lastShopId: sellerId }]);
    const membership = await sql.query(`SELECT "role" FROM "Membership" WHERE "personId" = $1 AND "sellerId" = $2`, [personId, sellerId]);
    expect(membership.rows).toEqual([{ role: "manager" }]);
    const passkey = await sql.query(`SELECT "personId", "counter", "transports", "name", "lastUsedAt" FROM "Passkey" WHERE "id" = $1`, [
      credentialId,
    ]);
    expect(passkey.rows).toEqual([{ personId, counter: "1", transports: "internal", name: "Chrome · Android", lastUsedAt: null }]);
    const used = await sql.query(`SELECT "acceptedById" FROM "Invitation" WHERE "id" = $1`, [invitationId]);
    expect(used.rows).toEqual([{ acceptedById: personId }]);
    const audit = await sql.query(
      `SELECT "personId", "personName", "action", "subject", "after" FROM "AuditEntry" WHERE "sellerId" = $1 AND "personId" = $2`,
      [sellerId, personId],
    );
    expect(audit.rows).toEqual([
      { personId, personName: "Ana Souza", action: "member.join", subject: "Ana Souza", after: { role: "manager" } },
    ]);
  });

  it.each(["expired", "used", "revoked"] as const)("is refused through an %s invitation, and creates no person", async (state) => {
    const { token, id } = await invitation();
    if (state === "expired") await sql.query(`UPDATE "Invitation" SET "expiresAt" = now() - interval '1 minute' WHERE "id" = $1`, [id]);
    if (state === "revoked") await people.revokeInvitation(sellerId, id);
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

  it("is refused for an unknown invitation, for a sign-in challenge, and for an answer to another challenge", async () => {
    const unknown = await joinWith(randomBytes(24).toString("base64url"), "Ninguém");
    expect(unknown.signedIn).toBeNull();

    const { token } = await invitation();
    const authenticator = new SoftwareAuthenticator();
    // Options for one challenge, the answer sent with another's id.
    const first = await registrationFor("Carla");
    const second = await registrationFor("Carla");
    const answer = JSON.stringify(authenticator.register(first.options));
    expect(await passkeys.signInWithPasskey(second.challengeId, { response: answer, invite: token, name: "Carla" })).toBeNull();
    // A sign-in challenge cannot create a person.
    const signIn = await passkeys.createChallenge("authenticate");
    expect(await passkeys.signInWithPasskey(signIn.id, { response: answer, invite: token, name: "Carla" })).toBeNull();
    expect(await count("Person", `"name"`, "Carla")).toBe(0);
    // The invitation is still open for the right answer.
    expect((await joinWith(token, "Carla")).signedIn).not.toBeNull();
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
    const { options } = await registrationFor("Estranho");
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
    const { challengeId, options } = await signInChallenge();
    const answer = JSON.stringify(authenticator.authenticate(options));
    expect(await passkeys.signInWithPasskey(challengeId, { response: answer })).not.toBeNull();
    expect(await passkeys.signInWithPasskey(challengeId, { response: answer })).toBeNull();
    const again = await signInChallenge();
    expect(await passkeys.signInWithPasskey(again.challengeId, { response: answer })).toBeNull();
  });

  it("refuses an answer for another site, and malformed credentials", async () => {
    const { token } = await invitation();
    const { authenticator } = await joinWith(token, "Davi Rocha");
    const phishing = new SoftwareAuthenticator("https://painel-do-vendedor.example");
    phishing.credentials.set(...[...authenticator.credentials.entries()][0]!);
    expect(await signInWith(phishing)).toBeNull();

    const { challengeId } = await signInChallenge();
    expect(await passkeys.signInWithPasskey(challengeId, { response: "not json" })).toBeNull();
    expect(await passkeys.signInWithPasskey(challengeId, { response: "{}" })).toBeNull();
    expect(await passkeys.signInWithPasskey(challengeId, {})).toBeNull();
    expect(await passkeys.signInWithPasskey(challengeId, { response: "{}", invite: token })).toBeNull();
  });
});

describe("a signed-in person's passkeys", () => {
  async function addWith(authenticator: SoftwareAuthenticator, person: { id: string; name: string }, challengeFor = person.id) {
    const challenge = await passkeys.createChallenge("add", challengeFor);
    const options = await passkeys.buildRegistrationOptions({
      challenge: challenge.challenge,
      personId: person.id,
      name: person.name,
      rpName: "Painel do Vendedor",
    });
    const response = authenticator.register(options);
    return {
      response,
      outcome: await passkeys.addPasskeyWithChallenge(challenge.id, person.id, response, {
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
    const challenge = await passkeys.createChallenge("add", personId);
    const options = await passkeys.buildRegistrationOptions({
      challenge: challenge.challenge,
      personId,
      name: "Fábio Reis",
      rpName: "x",
      exclude: [{ id: response.id, transports: "internal" }],
    });
    expect(options.excludeCredentials?.map((credential) => credential.id)).toEqual([response.id]);
    expect(await passkeys.addPasskeyWithChallenge(challenge.id, personId, key.register(options, response.id))).toEqual({
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
    const answer = JSON.stringify(authenticator.authenticate(signIn));
    expect(await passkeys.verifyPasskeySignIn({ response: answer }, userAgent)).toEqual(joined);
    // The cookie went with the first try.
    expect(await passkeys.verifyPasskeySignIn({ response: answer }, userAgent)).toBeNull();

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
    await people.revokeInvitation(sellerId, id);
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
