// The hex of `--color-brand-700` (app/globals.css) for the browser chrome: keep the two in step.
export const BRAND_COLOR = "#005e37";
