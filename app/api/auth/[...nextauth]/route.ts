import type { NextRequest } from "next/server";
import { handlers } from "@/lib/auth/auth.server";
import { handleAuthGet } from "@/lib/auth/callback-route.server";

export function GET(request: NextRequest) {
  return handleAuthGet(request, handlers.GET);
}

export const { POST } = handlers;
