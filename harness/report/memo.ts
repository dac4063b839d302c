// The files are rewritten after every case, so without care a run of n cases renders n²/2
// cases (500 vectors: 13 s). A finished case never changes: the session freezes it, and the
// writers keep what they rendered for a frozen case. Unfrozen cases (a report built by hand)
// are always rendered afresh, so a mutated object can never show stale text.
// The context (what a writer takes from the whole report: the diagnoses of the case, the reply
// deadline) is part of the key, so a case shown in another report is rendered for that report.
export function perCase<T extends object, C = undefined>(render: (item: T, context: C) => string): (item: T, ...context: C extends undefined ? [] : [C]) => string {
  const cache = new WeakMap<T, Map<string, string>>();
  return (item, ...rest) => {
    const context = rest[0] as C;
    if (!Object.isFrozen(item)) return render(item, context);
    const key = context === undefined ? '' : JSON.stringify(context);
    let texts = cache.get(item);
    if (texts === undefined) {
      texts = new Map();
      cache.set(item, texts);
    }
    let text = texts.get(key);
    if (text === undefined) {
      text = render(item, context);
      texts.set(key, text);
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
