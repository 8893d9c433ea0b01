# Sourced by ./quarry, bin/quarry of a release and .ci/run: finds a JDK 21+ and exports JAVA_HOME,
# and knows which JVM options each JDK version accepts.
# Order: $JAVA_HOME, the `java` on PATH, then JDKs under $QUARRY_JVM_DIR (default /usr/lib/jvm),
# newest version first.
# QUARRY_NEED_JAVAC=0 accepts a runtime without javac (enough to run a release, not to build).

QUARRY_MIN_JAVA=21

quarry_java_major() { # prints the feature version of the java binary $1, or nothing
  "$1" -XshowSettings:properties -version 2>&1 |
    sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

quarry_find_jdk() {
  local candidates=() c major need_javac="${QUARRY_NEED_JAVAC:-1}" jvm_dir="${QUARRY_JVM_DIR:-/usr/lib/jvm}"
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v java >/dev/null 2>&1; then
    c=$(readlink -f "$(command -v java)"); candidates+=("${c%/bin/java}")
  fi
  if [ -d "$jvm_dir" ]; then
    # Newest first by the version in the folder name (java-21-openjdk, temurin-25-jdk, jdk-23.0.1).
    while IFS= read -r c; do candidates+=("$c"); done < <(
      for c in "$jvm_dir"/*/; do
        c=${c%/}
        printf '%s\t%s\n' "$(basename "$c" | grep -o '[0-9][0-9]*' | head -n 1)" "$c"
      done | sort -t "$(printf '\t')" -k1,1nr | cut -f2)
  fi
  for c in "${candidates[@]}"; do
    [ -x "$c/bin/java" ] || continue
    [ "$need_javac" = 0 ] || [ -x "$c/bin/javac" ] || continue
    major=$(quarry_java_major "$c/bin/java")
    if [ -n "$major" ] && [ "$major" -ge "$QUARRY_MIN_JAVA" ]; then
      export JAVA_HOME="$c"
      QUARRY_JAVA_MAJOR="$major"
      return 0
    fi
  done
  return 1
}

# Options for the JVM that runs Maven on JDK $1. JDK 23 and later warn when a library (Maven's
# Guava) calls sun.misc.Unsafe unless told to allow it; JDK 21 and 22 do not know the option
# and refuse to start when given it.
quarry_maven_jvm_opts() {
  if [ "$1" -ge 23 ]; then printf '%s' "--sun-misc-unsafe-memory-access=allow"; fi
}

# Options for the JVM at $3 (default $JAVA_HOME) that runs Quarry command $2 on JDK $1: native
# access for Lucene's memory mapping, and for the long-running commands (serve, eval) the
# Vector API module, with which Lucene decodes and scores faster and the exact semantic scan
# multiplies eight components at a time, when the runtime has it (its
# `release` file lists its modules; a trimmed runtime may lack it). The JVM then prints one
# "Using incubator modules" line at start; the short commands skip the module and that line.
quarry_app_jvm_opts() {
  local home="${3:-${JAVA_HOME:-}}"
  printf '%s' "--enable-native-access=ALL-UNNAMED"
  case "${2:-}" in
    serve|eval)
      if grep -q '^MODULES=.*jdk\.incubator\.vector' "$home/release" 2>/dev/null; then
        printf ' %s' "--add-modules jdk.incubator.vector"
      fi ;;
  esac
}

# JVM options that let Quarry's JVMs share class-data archives kept in folder $1 (created here),
# one a command $2 (what `search` loads is not what `serve` does): the command's JVM maps the
# classes a previous run of it archived instead of loading them again
# (a server starts in about half the CPU time), and the server's extraction workers keep theirs
# beside it (quarry.classArchives). The JVM writes an archive when the first run exits and
# writes it again when the JDK or the class path changed. Nothing when the folder cannot be made,
# or when QUARRY_CLASS_ARCHIVES=off. The VM's warnings go to stderr (stdout is the command's),
# without the archive's own notices (a JDK reports an archive it must rewrite as an error). The
# JVM checks an archive's checksums before it maps it (a damaged file is passed over, not run).
quarry_class_archive_opts() {
  local folder="$1" command
  command=$(printf '%s' "${2:-none}" | tr -cd 'a-z-' | sed 's/^-*//')
  [ "${QUARRY_CLASS_ARCHIVES:-on}" = off ] && return 0
  mkdir -p "$folder" 2>/dev/null && [ -w "$folder" ] || return 0
  printf '%s' "-XX:SharedArchiveFile=$folder/${command:-none}.jsa -XX:+AutoCreateSharedArchive -XX:+VerifySharedSpaces -Xlog:disable -Xlog:all=warning,cds=off:stderr -Dquarry.classArchives=$folder"
}
