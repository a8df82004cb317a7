import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basicUserInfoSchema } from "@marketplace/api/schemas/oauth";
import { obtainAccessToken, startTestSandbox, type TestSandbox } from "./testing";

let sandbox: TestSandbox;
const PATH = "/v1.0/integradores/basic_user_info";

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

describe("POST /v1.0/integradores/basic_user_info", () => {
  it("answers the user's name and e-mail", async () => {
    const token = await obtainAccessToken(sandbox.url, { scopes: ["basic_user_info"] });
    const response = await sandbox.api(PATH, { method: "POST", token, json: {} });
    expect(response.status).toBe(200);
    expect(basicUserInfoSchema.strict().parse(await response.json())).toEqual({ user_name: "Loja Demo", user_email: "seller@example.com" });
    const other = await obtainAccessToken(sandbox.url, { scopes: ["basic_user_info"], login: "seller2@example.com" });
    expect(await (await sandbox.api(PATH, { method: "POST", token: other })).json()).toEqual({
      user_name: "Loja Dois",
      user_email: "seller2@example.com",
    });
  });

  it("two users whose addresses differ only in letter case sign in as themselves, each told exactly as registered", async () => {
    const infoOf = async (login: string) => {
      const token = await obtainAccessToken(sandbox.url, { scopes: ["basic_user_info"], login });
      return (await sandbox.api(PATH, { method: "POST", token })).json();
    };
    expect(await infoOf("seller2@example.com")).toEqual({ user_name: "Loja Dois", user_email: "seller2@example.com" });
    expect(await infoOf("Seller2@Example.com")).toEqual({ user_name: "Outra Pessoa", user_email: "Seller2@Example.com" });
    // An address only one user has still signs in whatever its spelling; an ambiguous spelling does not.
    expect(await infoOf(" SELLER@example.COM ")).toEqual({ user_name: "Loja Demo", user_email: "seller@example.com" });
    expect(sandbox.handle.store.findUserByLogin("SELLER2@EXAMPLE.COM")).toBeUndefined();
  });

  it("no or unknown token → 401; missing scope → 403", async () => {
    expect((await sandbox.api(PATH, { method: "POST" })).status).toBe(401);
    expect((await sandbox.api(PATH, { method: "POST", token: "made-up" })).status).toBe(401);
    const token = await obtainAccessToken(sandbox.url, { scopes: ["order-order:read"] });
    const response = await sandbox.api(PATH, { method: "POST", token });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: "insufficient_scope" } });
  });
});
