// The brand colour as the browser's chrome and the installed app's splash take it: the hex of
// `--color-brand-700` in app/globals.css (oklch(0.42 0.11 160)). Keep the two in step.
export const BRAND_COLOR = "#005e37";
