export { WebhooksPage as default, webhooksPageMetadata as generateMetadata } from "@/features/webhooks/pages/webhooks-page";
