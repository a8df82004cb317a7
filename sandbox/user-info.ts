// POST /v1.0/integradores/basic_user_info (spec: Endpoint 3). A JSON body may be sent; it is ignored.
// Any other body is refused (400), as on every JSON route of the sandbox (validation.ts).
import { Hono } from "hono";
import type { BasicUserInfo } from "@marketplace/api/schemas/oauth";
import { apiGuard } from "./auth";
import type { SandboxContext, SandboxEnv } from "./context";
import { jsonOrNoBody } from "./validation";

export const BASIC_USER_INFO_PATH = "/v1.0/integradores/basic_user_info";

export function userInfoRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  routes.post(BASIC_USER_INFO_PATH, apiGuard(ctx, ["basic_user_info"]), jsonOrNoBody(400), (c) => {
    const { user } = c.get("auth");
    const body: BasicUserInfo = { user_name: user.name, user_email: user.email };
    return c.json(body);
  });
  return routes;
}
