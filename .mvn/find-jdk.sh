# Sourced by ./mvnw, ./cadastro and .ci/run: makes JAVA_HOME point at a JDK 21 or newer.
# Order: a JAVA_HOME that is already 21+, the `java` on PATH if 21+, then the newest 21+ JDK in the
# usual install folders. Exits with a clear message when none is found.

cadastro_java_major() {
  # Prints the feature version of the JDK at $1 (reads its `release` file; no JVM start-up).
  if [ -r "$1/release" ]; then
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" | head -n 1
  elif [ -x "$1/bin/java" ]; then
    "$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1
  fi
}

cadastro_is_jdk21() {
  [ -x "$1/bin/javac" ] || return 1
  major=$(cadastro_java_major "$1")
  [ -n "$major" ] && [ "$major" -ge 21 ] 2>/dev/null
}

cadastro_find_jdk() {
  if [ -n "${JAVA_HOME:-}" ] && cadastro_is_jdk21 "$JAVA_HOME"; then
    return 0
  fi
  if command -v javac >/dev/null 2>&1; then
    candidate=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    if cadastro_is_jdk21 "$candidate"; then
      JAVA_HOME=$candidate
      export JAVA_HOME
      return 0
    fi
  fi
  best=""
  best_major=0
  for dir in /usr/lib/jvm/* /usr/local/lib/jvm/* /opt/java/* /opt/*jdk* "$HOME"/.sdkman/candidates/java/* \
             "$HOME"/.jdks/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$dir" ] || continue
    [ -L "$dir" ] && continue
    if cadastro_is_jdk21 "$dir"; then
      major=$(cadastro_java_major "$dir")
      if [ "$major" -gt "$best_major" ]; then
        best=$dir
        best_major=$major
      fi
    fi
  done
  if [ -n "$best" ]; then
    JAVA_HOME=$best
    export JAVA_HOME
    return 0
  fi
  echo "cadastro: no JDK 21 or newer found. Install one, or set JAVA_HOME to it." >&2
  return 1
}

cadastro_find_jdk || exit 1
PATH="$JAVA_HOME/bin:$PATH"
export PATH

# Maven 3.9's Guice touches sun.misc.Unsafe; JDK 24+ warns on every build unless told it is allowed.
if [ "$(cadastro_java_major "$JAVA_HOME")" -ge 24 ] 2>/dev/null; then
  case "${MAVEN_OPTS:-}" in
    *sun-misc-unsafe-memory-access*) ;;
    *) MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow ${MAVEN_OPTS:-}"; export MAVEN_OPTS ;;
  esac
fi
