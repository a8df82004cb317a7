import type { NextRequest } from "next/server";
import { handlers } from "@/lib/auth";
import { handleAuthGet } from "@/lib/auth/callback-route";

export function GET(request: NextRequest) {
  return handleAuthGet(request, handlers.GET);
}

export const { POST } = handlers;
