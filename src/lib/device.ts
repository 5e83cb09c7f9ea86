/**
 * Phones and tablets announce themselves in the user-agent string. On-demand pages check it on the
 * server so the first paint already uses the mobile layout (SPEC §9: mobile detection is by
 * user-agent); prerendered pages cannot, and leave it to the viewport width measured in the browser.
 */
const MOBILE_UA =
  /Mobi|Android|iPhone|iPad|iPod|BlackBerry|BB10|IEMobile|Windows Phone|Opera Mini|Kindle|Silk|webOS|Tablet/i;

/** Whether a user-agent string belongs to a phone or tablet browser; an empty string is not mobile. */
export function isMobileUserAgent(ua: string): boolean {
  return MOBILE_UA.test(ua);
}
