// A seller's phone (an iPhone 12–15's screen, touch only): the "phone" project of
// playwright.config.ts, and the phone-sized pass over every page (accessibility.spec.ts).
export const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
};

// A desk: a 1366 px laptop screen, the most common in the sellers' offices.
export const DESK = { viewport: { width: 1366, height: 900 }, hasTouch: false, isMobile: false };
