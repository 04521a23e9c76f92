// The simulator's math and the chart's scales, written again independently of the
// Rust code so that the tests check the page against the definition, not itself.

export const HOUSES = [
  { area: 2104, price: 399.9 },
  { area: 1600, price: 329.9 },
  { area: 2400, price: 369.0 },
];

export const START = { weight: 0.1, bias: 150 };

export const predict = (area: number, w: number, b: number) => area * w + b;

export const squaredErrors = (w: number, b: number) =>
  HOUSES.map((h) => (h.price - predict(h.area, w, b)) ** 2);

export const error = (w: number, b: number) =>
  squaredErrors(w, b).reduce((s, x) => s + x, 0) / HOUSES.length;

/** 13359.084 → "13,359.08", as the page prints it. */
export const grouped = (x: number, decimals = 2) =>
  x.toLocaleString("en-US", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });

// Chart geometry: viewBox 600 × 400; plot from x 84 to 564 (area 0–3000) and
// from y 348 to 16 (price 0–600).
export const xOf = (area: number) => 84 + (area / 3000) * (600 - 84 - 36);
export const yOf = (price: number) => 400 - 52 - (price / 600) * (400 - 16 - 52);

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** The bias with the lowest error for weight `w`: mean price − w × mean area. */
export const bestBias = (w: number) =>
  mean(HOUSES.map((h) => h.price)) - w * mean(HOUSES.map((h) => h.area));

/** `x` on a slider of `step` (the app puts computed points there: 0.1 for the
 *  bias, 0.0001 for the weight), as a division like the browser's own. */
export const onStep = (x: number, step: number) => Math.round(x / step) / Math.round(1 / step);

/** The weight with the lowest error for bias `b`: Σ area·(price − b) / Σ area². */
export const bestWeight = (b: number) =>
  HOUSES.reduce((s, h) => s + h.area * (h.price - b), 0) / HOUSES.reduce((s, h) => s + h.area ** 2, 0);

/** A residual as the table prints it: "+39.50", "−21.00" (a true minus), "0.00". */
export const signed = (x: number) => {
  const text = grouped(Math.abs(x));
  if (/^[0.,]*$/.test(text)) return text;
  return (x < 0 ? "\u2212" : "+") + text;
};
