// @ts-check
// Which URLs a card keeps and shows as a link: web links only (http, https). A card's `data`
// is anyone's to write, and a `javascript:` or `data:` URL shown as a link would run or show
// whatever its writer chose in the page of the person who clicks it.

/**
 * Whether `url` is a web link (http or https), the only kind a card keeps and shows as a link.
 * @param {unknown} url
 * @returns {url is string}
 */
export function webLink(url) {
  if (typeof url !== "string" || !/^https?:\/\//i.test(url)) return false;
  try {
    return new URL(url).host !== "";
  } catch {
    return false;
  }
}
