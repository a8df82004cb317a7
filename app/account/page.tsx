export { AccountPage as default, accountPageMetadata as generateMetadata } from "@/features/people/pages/account-page";
