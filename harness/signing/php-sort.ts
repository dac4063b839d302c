// PHP's sort() algorithm (Zend/zend_sort.c: sorting networks up to five, insertion sort up to
// sixteen, then a quicksort), with PHP 8's stable fallback (equal items keep their order). PHP's
// `<=>` on array keys is not transitive ("10" < "9a" as strings, "9" < "10" as numbers), so the
// order ksort() gives depends on the algorithm: the model follows it step by step.

type Compare<T> = (a: T, b: T) => number;

/** Sorts `items` in place as zend_sort() does, with `compare` made stable by the items' first positions. */
export function zendSort<T>(items: T[], compare: Compare<T>): T[] {
  const position = new Map<T, number>(items.map((item, i) => [item, i]));
  const cmp: Compare<number> = (i, j) => compare(items[i]!, items[j]!) || position.get(items[i]!)! - position.get(items[j]!)!;
  const swap = (i: number, j: number) => { const t = items[i]!; items[i] = items[j]!; items[j] = t; };
  sortRange(0, items.length, cmp, swap);
  return items;
}

type Swap = (i: number, j: number) => void;

function sort3(a: number, b: number, c: number, cmp: Compare<number>, swap: Swap): void {
  if (cmp(a, b) <= 0) {
    if (cmp(b, c) <= 0) return;
    swap(b, c);
    if (cmp(a, b) > 0) swap(a, b);
    return;
  }
  if (cmp(c, b) <= 0) { swap(a, c); return; }
  swap(a, b);
  if (cmp(b, c) > 0) swap(b, c);
}

/** zend_sort_4 and zend_sort_5: the first ones sorted, then the last one moved down. */
function sortNetwork(at: readonly number[], cmp: Compare<number>, swap: Swap): void {
  if (at.length === 2) { if (cmp(at[0]!, at[1]!) > 0) swap(at[0]!, at[1]!); return; }
  if (at.length === 3) { sort3(at[0]!, at[1]!, at[2]!, cmp, swap); return; }
  sortNetwork(at.slice(0, -1), cmp, swap);
  for (let k = at.length - 1; k > 0 && cmp(at[k - 1]!, at[k]!) > 0; k--) swap(at[k - 1]!, at[k]!);
}

function insertSort(start: number, n: number, cmp: Compare<number>, swap: Swap): void {
  if (n <= 1) return;
  if (n <= 5) { sortNetwork(Array.from({ length: n }, (_, k) => start + k), cmp, swap); return; }
  const end = start + n;
  const sentry = start + 6;
  for (let i = start + 1; i < end; i++) {
    let j = i - 1;
    if (cmp(j, i) <= 0) continue;
    if (i < sentry) {
      // The first six: a plain backward scan.
      while (j !== start) {
        j--;
        if (cmp(j, i) <= 0) { j++; break; }
      }
    } else {
      // Then two steps at a time.
      for (;;) {
        j -= 2;
        if (cmp(j, i) <= 0) {
          j++;
          if (cmp(j, i) <= 0) j++;
          break;
        }
        if (j === start) break;
        if (j === start + 1) {
          j--;
          if (cmp(i, j) > 0) j++;
          break;
        }
      }
    }
    for (let k = i; k > j; k--) swap(k, k - 1);
  }
}

function sortRange(start: number, n: number, cmp: Compare<number>, swap: Swap): void {
  for (;;) {
    if (n <= 16) { insertSort(start, n, cmp, swap); return; }
    const end = start + n;
    const offset = n >> 1;
    let pivot = start + offset;
    if (n >> 10) {
      const delta = offset >> 1;
      const at = [start, start + delta, pivot, pivot + delta, end - 1];
      sortNetwork(at, cmp, swap);
    } else {
      sort3(start, pivot, end - 1, cmp, swap);
    }
    swap(start + 1, pivot);
    pivot = start + 1;
    let i = pivot + 1;
    let j = end - 1;
    partition: for (;;) {
      while (cmp(pivot, i) > 0) {
        i++;
        if (i === j) break partition;
      }
      j--;
      if (j === i) break;
      while (cmp(j, pivot) > 0) {
        j--;
        if (j === i) break partition;
      }
      swap(i, j);
      i++;
      if (i === j) break;
    }
    swap(pivot, i - 1);
    if ((i - 1) - start < end - i) {
      sortRange(start, i - start - 1, cmp, swap);
      n = end - i;
      start = i;
    } else {
      sortRange(i, end - i, cmp, swap);
      n = i - start - 1;
    }
  }
}
