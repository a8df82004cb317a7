import { getTranslations } from "next-intl/server";
import { passkeyOptionsRequestSchema } from "@/lib/auth/passkey-contract";
import { invitationRegistrationOptions, signInOptions } from "@/lib/auth/passkeys.server";
import { additionalPasskeyOptions } from "@/features/people";
import { authorizePersonRequest } from "@/lib/auth/session.server";

// The WebAuthn options a browser asks for before it creates or uses a passkey; each answer sets
// this browser's single-use challenge cookie (lib/auth/passkeys.server.ts). Signing in and joining through
// an open invitation are public by design (whoever holds the link may join), so handing options out
// writes nothing: the challenge is sealed in the cookie. Adding a passkey is for the signed-in person only.
const NO_STORE = { "cache-control": "private, no-store" };

export async function POST(request: Request): Promise<Response> {
  const body = passkeyOptionsRequestSchema.safeParse(await request.json().catch(() => null));
  if (!body.success) return Response.json({ error: "invalid" }, { status: 400, headers: NO_STORE });
  const input = body.data;
  if (input.purpose === "authenticate") return Response.json(await signInOptions(), { headers: NO_STORE });

  const rpName = (await getTranslations("shell"))("brand");
  if (input.purpose === "register") {
    const options = await invitationRegistrationOptions({ invite: input.invite, name: input.name, rpName });
    if (!options) return Response.json({ error: "invitation" }, { status: 400, headers: NO_STORE });
    return Response.json(options, { headers: NO_STORE });
  }
  const person = await authorizePersonRequest();
  if (person instanceof Response) return person;
  return Response.json(await additionalPasskeyOptions(person, rpName), { headers: NO_STORE });
}
