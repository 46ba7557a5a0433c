// The number fields that set a search's limits (seconds, samples, ...).

// The field's value, or ``fallback`` when it is empty, not a number or below ``min``.
export function numberFrom(input, fallback, min) {
  const v = Number(input.value);
  return input.value.trim() !== "" && Number.isFinite(v) && v >= min ? v : fallback;
}

// A request's ``limit`` from a seconds field.
export const secondsLimit = (input, fallback) => ({ seconds: numberFrom(input, fallback, 0.1) });

// A labelled number field (markup for a view's template), found again by its data-ref.
export function numberField(ref, label, { value, min = 0, step = 1, title = "" }) {
  return `<label${title ? ` title="${title}"` : ""}>${label} ` +
    `<input type="number" data-ref="${ref}" min="${min}" step="${step}" value="${value}"></label>`;
}

export const secondsField = (ref, value, step = 1) => numberField(ref, "Seconds", { value, min: 0.1, step });
