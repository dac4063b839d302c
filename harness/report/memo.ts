// The files are rewritten after every case, so without care a run of n cases renders n²/2
// cases (500 vectors: 13 s). A finished case never changes: the session freezes it, and the
// writers keep what they rendered for a frozen case. Unfrozen cases (a report built by hand)
// are always rendered afresh, so a mutated object can never show stale text.
export function perCase<T extends object>(render: (item: T) => string): (item: T) => string {
  const cache = new WeakMap<T, string>();
  return (item) => {
    if (!Object.isFrozen(item)) return render(item);
    let text = cache.get(item);
    if (text === undefined) {
      text = render(item);
      cache.set(item, text);
    }
    return text;
  };
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
