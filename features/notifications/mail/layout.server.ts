import "server-only";
import mjml2html from "mjml";
import { BRAND_COLOR } from "@/lib/brand";

// Every e-mail's HTML (issue 41; MJML, decision 0020): one layout compiled by MJML once per process,
// with {{slots}} the message's words fill, each escaped for HTML. MJML costs about 10 ms a page;
// filling slots costs microseconds, so a burst of orders costs the sender no compilation.

export interface EmailSlots {
  lang: string;
  title: string;
  preview: string;
  heading: string;
  /** Lines under the heading, each escaped; the first is the lead paragraph. */
  lines: readonly string[];
  button: string;
  buttonUrl: string;
  why: string;
  /** Under `why`: the alert preferences and unsubscribe, say; none for an invitation. */
  links: readonly { text: string; url: string }[];
}

const LAYOUT = `
<mjml lang="{{lang}}">
  <mj-head>
    <mj-title>{{title}}</mj-title>
    <mj-preview>{{preview}}</mj-preview>
    <mj-attributes>
      <mj-all font-family="Helvetica, Arial, sans-serif" />
      <mj-text font-size="16px" line-height="24px" color="#18181b" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f4f4f5">
    <mj-section padding="24px 12px 0">
      <mj-column background-color="#ffffff" border-radius="8px" padding="8px 0">
        <mj-text font-size="20px" line-height="28px" font-weight="600">{{heading}}</mj-text>
        <mj-text>{{lines}}</mj-text>
        <mj-button href="{{buttonUrl}}" background-color="${BRAND_COLOR}" color="#ffffff" font-size="16px" border-radius="6px" align="left">{{button}}</mj-button>
      </mj-column>
    </mj-section>
    <mj-section padding="12px 12px 24px">
      <mj-column>
        <mj-text font-size="13px" line-height="20px" color="#52525b">{{why}}{{links}}</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

let compiled: Promise<string> | null = null;

async function compile(): Promise<string> {
  const result = await mjml2html(LAYOUT, { validationLevel: "strict", minify: false });
  return result.html;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

export async function emailHtml(slots: EmailSlots): Promise<string> {
  compiled ??= compile();
  const layout = await compiled;
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(slots)) {
    if (name === "lines") values[name] = (value as string[]).map(escapeHtml).join("<br />");
    else if (name === "links")
      values[name] = (value as EmailSlots["links"])
        .map(
          ({ text, url }, index) =>
            `${index === 0 ? "<br />" : " · "}<a href="${escapeHtml(url)}" style="color:${BRAND_COLOR}">${escapeHtml(text)}</a>`,
        )
        .join("");
    else values[name] = escapeHtml(value as string);
  }
  return layout.replace(/\{\{(\w+)\}\}/g, (slot, name: string) => values[name] ?? slot);
}
