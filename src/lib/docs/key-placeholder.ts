/**
 * What code samples write where the reader's API key goes. The static pages carry only this; the
 * docs script puts a signed-in reader's own key in its place in the browser.
 */
export const KEY_PLACEHOLDER = 'YOUR_API_KEY';
