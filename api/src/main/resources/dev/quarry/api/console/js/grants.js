// What the signed-in token's grants allow, read from POST /v1/retrieval/whoami. It only decides
// what the console offers; the server decides every request again on its own.

/** A grant entry matches a name exactly, or as a prefix when it ends in '*'. */
export function matches(entry, name) {
  return entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : entry === name;
}

export class Grants {
  constructor(whoami) {
    this.subject = whoami.subject;
    this.grants = whoami.grants || [];
  }

  /** The scopes any grant on `corpus` allows. */
  scopes(corpus) {
    const out = new Set();
    for (const g of this.grants) {
      if (matches(g.corpus, corpus)) g.scopes.forEach(s => out.add(s));
    }
    return out;
  }

  can(corpus, scope) {
    return this.scopes(corpus).has(scope);
  }

  /** search or index allow reading and listing sources. */
  canRead(corpus) {
    const s = this.scopes(corpus);
    return s.has('search') || s.has('index');
  }

  /** Whether some grant allows `scope` on some corpus (to show a menu at all). */
  anywhere(scope) {
    return this.grants.some(g => g.scopes.includes(scope));
  }

  /** The corpus patterns of grants with `scope`, for hints such as "you may create team-*". */
  patterns(scope) {
    return this.grants.filter(g => g.scopes.includes(scope)).map(g => g.corpus);
  }
}
