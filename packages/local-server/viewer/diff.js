// A line diff of two texts (longest common subsequence), for comparing prompt versions.

/** The lines of `a` and `b` as `[op, line]`: ' ' in both, '-' only in a, '+' only in b. */
export function diffLines(a, b) {
  const x = a.split('\n');
  const y = b.split('\n');
  // lcs[i][j]: the longest common subsequence of x[i..] and y[j..]; prompts are short.
  const lcs = Array.from({ length: x.length + 1 }, () => new Array(y.length + 1).fill(0));
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--) lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      out.push([' ', x[i]]);
      i++;
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) out.push(['-', x[i++]]);
    else out.push(['+', y[j++]]);
  }
  while (i < x.length) out.push(['-', x[i++]]);
  while (j < y.length) out.push(['+', y[j++]]);
  return out;
}
