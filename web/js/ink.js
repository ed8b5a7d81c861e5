// @ts-check
// Text on a person's colour (the held-by badge): white or black, whichever contrasts more with
// that colour by WCAG 2's formula. One of the two always reaches 4.58:1 (they cross where the
// colour's luminance is 0.179), so the badge is readable (≥ 4.5:1) for every name and for any
// colour a person may pick, which no single text colour on `hsl(h 70% 42%)` was: white failed
// on about 40 % of the hues (yellows, greens, cyans).

/**
 * The sRGB channels (0…1) of `hsl(H S% L%)` (the page's names' colours) or `#rrggbb`; null
 * for anything else.
 * @param {string} color
 * @returns {[number, number, number] | null}
 */
export function channels(color) {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color.trim());
  if (hex) return [parseInt(hex[1], 16) / 255, parseInt(hex[2], 16) / 255, parseInt(hex[3], 16) / 255];
  const hsl = /^hsl\(\s*([\d.]+)(?:deg)?[\s,]+([\d.]+)%[\s,]+([\d.]+)%\s*\)$/i.exec(color.trim());
  if (!hsl) return null;
  const h = Number(hsl[1]) % 360;
  const s = Number(hsl[2]) / 100;
  const l = Number(hsl[3]) / 100;
  const a = s * Math.min(l, 1 - l);
  /** @param {number} n */
  const f = (n) => {
    const k = (n + h / 30) % 12;
    return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0), f(8), f(4)];
}

/**
 * WCAG 2's relative luminance of sRGB channels (0…1).
 * @param {[number, number, number]} rgb
 */
export function luminance([r, g, b]) {
  /** @param {number} c */
  const linear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/**
 * WCAG 2's contrast ratio of two luminances (1…21).
 * @param {number} a
 * @param {number} b
 */
export function contrastRatio(a, b) {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/**
 * The text colour for `background`: "#fff" or "#000", whichever contrasts more ("#fff" for a
 * colour it cannot read).
 * @param {string} background
 * @returns {"#fff" | "#000"}
 */
export function inkOn(background) {
  const rgb = channels(background);
  if (!rgb) return "#fff";
  const l = luminance(rgb);
  return contrastRatio(1, l) >= contrastRatio(0, l) ? "#fff" : "#000";
}
