# Sourced by ./headroom and ./run-tests: find_java prints a java executable of version $required or newer
# (JAVA_HOME, then the system's JVM directories, then PATH), or fails.

major_of() { # prints the major version of a java executable, or nothing
  "$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2; exit}' \
    | cut -d. -f1
}

find_java() {
  local candidates=()
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME/bin/java")
  local d
  for d in /usr/lib/jvm/*/bin/java /usr/java/*/bin/java /Library/Java/JavaVirtualMachines/*/Contents/Home/bin/java; do
    [ -x "$d" ] && candidates+=("$d")
  done
  command -v java >/dev/null 2>&1 && candidates+=("$(command -v java)")
  local c v
  for c in "${candidates[@]}"; do
    [ -x "$c" ] || continue
    v="$(major_of "$c" || true)"
    if [ -n "$v" ] && [ "$v" -ge "$required" ] 2>/dev/null; then
      echo "$c"
      return 0
    fi
  done
  return 1
}
