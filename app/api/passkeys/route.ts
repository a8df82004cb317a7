import { addPasskeyRequestSchema, passkeyIdSchema } from "@/lib/auth/passkey-contract";
import type { AddPasskeyAnswer } from "@/lib/auth/passkey-contract";
import { addPasskey, removePasskey } from "@/features/people";
import { authorizePersonRequest } from "@/lib/auth/session.server";

// The signed-in person's own passkeys (Account page): add one (the answer to this browser's "add"
// challenge from ./options) or remove one. Nobody else's passkey can be named here: it is not found.
const NO_STORE = { "cache-control": "private, no-store" };
const answer = (body: AddPasskeyAnswer, status: number) => Response.json(body, { status, headers: NO_STORE });

export async function POST(request: Request): Promise<Response> {
  const person = await authorizePersonRequest();
  if (person instanceof Response) return person;
  const body = addPasskeyRequestSchema.safeParse(await request.json().catch(() => null));
  if (!body.success) return answer({ error: "invalid" }, 400);
  const outcome = await addPasskey(person.id, body.data.response, { name: body.data.name, userAgent: request.headers.get("user-agent") });
  if (!outcome.ok) return answer({ error: outcome.error }, outcome.error === "duplicate" ? 409 : 400);
  return answer({ passkey: outcome.passkey }, 201);
}

export async function DELETE(request: Request): Promise<Response> {
  const person = await authorizePersonRequest();
  if (person instanceof Response) return person;
  const id = passkeyIdSchema.safeParse(new URL(request.url).searchParams.get("id"));
  if (!id.success) return Response.json({ error: "not-found" }, { status: 404, headers: NO_STORE });
  const outcome = await removePasskey(person.id, id.data);
  if (outcome === "not-found") return Response.json({ error: "not-found" }, { status: 404, headers: NO_STORE });
  if (outcome === "last-way-in") return Response.json({ error: "last-way-in" }, { status: 409, headers: NO_STORE });
  return new Response(null, { status: 204, headers: NO_STORE });
}
