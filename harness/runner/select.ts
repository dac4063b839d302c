import { idMatcher } from '../select/index.ts';

export function selectCases<C extends { id: string }>(cases: readonly C[], only?: string): C[] {
  const matches = idMatcher(only);
  return cases.filter((c) => matches(c.id));
}
