// Numbers and words for the views' text.

export function plural(n, word) {
  const many = word.endsWith("y") && !/[aeiou]y$/.test(word) ? word.slice(0, -1) + "ies" : word + "s";
  return `${n} ${n === 1 ? word : many}`;
}

// A probability as a percentage with ``digits`` decimals; values a hair
// from 0 or 1 keep enough digits not to read as exactly 0% or 100%.
export function percent(p, digits = 2) {
  if (p > 0 && p < 1e-7) return "<0.00001%";
  if (p > 0 && p < 1e-4) return `${(100 * p).toPrecision(2)}%`;
  if (p < 1 && p > 1 - 1e-4) return p > 1 - 1e-7 ? ">99.99999%" : `${(100 * p).toFixed(5)}%`;
  return `${(100 * p).toFixed(digits)}%`;
}

export const cellText = ([q, r]) => `(${q}, ${r})`;
