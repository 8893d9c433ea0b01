# Sourced by ./quarry and .ci/run: finds a JDK 21+ and exports JAVA_HOME.
# Order: $JAVA_HOME, the `java` on PATH, then JDKs under /usr/lib/jvm (newest first).

quarry_java_major() { # prints the feature version of the java binary $1, or nothing
  "$1" -XshowSettings:properties -version 2>&1 |
    sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

quarry_find_jdk() {
  local candidates=() c major
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v java >/dev/null 2>&1; then
    c=$(readlink -f "$(command -v java)"); candidates+=("${c%/bin/java}")
  fi
  if [ -d /usr/lib/jvm ]; then
    while IFS= read -r c; do candidates+=("$c"); done < <(ls -d /usr/lib/jvm/*/ 2>/dev/null | sed 's:/$::' | sort -rV)
  fi
  for c in "${candidates[@]}"; do
    [ -x "$c/bin/java" ] && [ -x "$c/bin/javac" ] || continue
    major=$(quarry_java_major "$c/bin/java")
    if [ -n "$major" ] && [ "$major" -ge 21 ]; then
      export JAVA_HOME="$c"
      return 0
    fi
  done
  return 1
}
