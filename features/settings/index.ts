export { TimeZoneForm } from "./components/time-zone-form";
