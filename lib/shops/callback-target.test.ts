import { describe, expect, it } from "vitest";
import { callbackTargetOf } from "./callback-target";

describe("callbackTargetOf", () => {
  it("records the dashboard's receiver without its key, wherever the dashboard is served", () => {
    expect(callbackTargetOf("http://localhost:3000/api/webhooks/marketplace/Ab3_secret-KEY")).toEqual({ receiver: "dashboard" });
    expect(callbackTargetOf("https://painel.example.com.br/api/webhooks/marketplace/k%2Fey?x=1")).toEqual({ receiver: "dashboard" });
  });

  it("keeps a custom URL's origin and path, without credentials, query or fragment", () => {
    expect(callbackTargetOf("https://user:p4ss@hooks.example.com/in/orders?token=s3cret&x=1#frag")).toEqual({
      url: "https://hooks.example.com/in/orders",
    });
    expect(callbackTargetOf("https://hooks.example.com:8443/?k=1")).toEqual({ url: "https://hooks.example.com:8443" });
  });

  it("keeps nothing of text that is not a URL, and none stays none", () => {
    expect(callbackTargetOf("not a url with a s3cret")).toEqual({ url: "—" });
    expect(callbackTargetOf(null)).toEqual({ url: null });
  });
});
